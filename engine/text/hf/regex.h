// The regular expressions of tokenizer.json files (Split and Replace patterns), on PCRE2 with
// UTF and Unicode properties (\p{L}, \p{N}, (?i:'s|'t), \s+(?!\S) ...), JIT-compiled when the
// library has a JIT.  Hugging Face compiles them with Oniguruma (Ruby syntax); the one
// difference the tokenizers' own patterns can meet is \s, which in Oniguruma is the
// White_Space property and so also matches U+0085 (NEL); compile() rewrites \s and \S to keep
// that.  Iteration over matches follows the onig crate's find_iter (see find_all).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::text::hf {

class Regex {
  public:
    /// Compiles an Oniguruma-style pattern; throws std::runtime_error with PCRE2's message
    /// and the position of the error.
    static Regex compile(std::string_view pattern);
    /// A pattern matching `literal` exactly (Hugging Face escapes String patterns).
    static Regex literal(std::string_view literal);

    /// Every match in `text` (valid UTF-8) as [begin, end) byte pairs, in order, as the onig
    /// crate's find_iter yields them: the search resumes at the end of each match; an empty
    /// match right where the previous match ended is skipped by moving one character on.
    /// Throws std::runtime_error if PCRE2 gives up (match or memory limit).
    void find_all(std::string_view text,
                  std::vector<std::pair<std::size_t, std::size_t>>& out) const;

    const std::string& pattern() const { return pattern_; }

    struct Code;

  private:
    std::shared_ptr<const Code> code_;
    std::string pattern_;
};

}  // namespace attnviz::text::hf
