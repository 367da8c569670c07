// The command line's option parser, shared by every subcommand (and the GUI's `export`).
// Options are "--name value", "--name=value" or a bare "--flag"; a value may be empty
// ("--text ''") and may start with '-' when it is a number ("--seed -1" is refused by the
// range check, not the parser).  Every problem is a UsageError with one clear sentence.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::io {

class Options {
  public:
    /// Throws UsageError on a stray positional argument, an empty name or a repeated option.
    static Options parse(const std::vector<std::string>& args);

    /// Throws UsageError naming the first option not in `names` (with a near match if any).
    void allow(std::initializer_list<const char*> names) const;

    bool has(const std::string& name) const { return values_.count(name) > 0; }
    /// A flag that is present; "--flag=value" is a UsageError.
    bool flag(const std::string& name) const;
    std::string required(const std::string& name) const;
    std::string value_or(const std::string& name, const std::string& fallback) const;
    std::int64_t integer(const std::string& name, std::int64_t lo, std::int64_t hi) const;
    std::int64_t integer_or(const std::string& name, std::int64_t fallback, std::int64_t lo,
                            std::int64_t hi) const;
    /// A number in [lo, hi] (or [lo, hi) when hi_exclusive); nullopt when absent.
    std::optional<double> real(const std::string& name, double lo, double hi,
                               bool hi_exclusive = false) const;
    /// One of `choices`; `fallback` when absent.
    std::string choice(const std::string& name, const std::string& fallback,
                       std::initializer_list<const char*> choices) const;

  private:
    std::map<std::string, std::optional<std::string>> values_;
};

}  // namespace attnviz::io
