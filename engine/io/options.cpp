#include "engine/io/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/errors.h"

namespace attnviz::io {

namespace {

std::string dashed(const std::string& name) {
    return "--" + name;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1,
                               prev[j - 1] + static_cast<std::size_t>(a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

Options Options::parse(const std::vector<std::string>& args) {
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0)
            throw UsageError("unexpected argument '" + a + "' (options start with --)");
        std::string name = a.substr(2);
        std::optional<std::string> value;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        } else if (i + 1 < args.size() && args[i + 1].compare(0, 2, "--") != 0) {
            value = args[++i];
        }
        if (name.empty()) throw UsageError("empty option name in '" + a + "'");
        if (!o.values_.emplace(name, std::move(value)).second)
            throw UsageError(dashed(name) + " is given twice");
    }
    return o;
}

void Options::allow(std::initializer_list<const char*> names) const {
    for (const auto& [name, value] : values_) {
        bool known = name == "help";
        std::string nearest;
        std::size_t best = 3;
        for (const char* n : names) {
            if (name == n) known = true;
            const std::size_t d = edit_distance(name, n);
            if (d < best) best = d, nearest = n;
        }
        if (!known)
            throw UsageError("unknown option " + dashed(name) +
                             (nearest.empty() ? "" : " (did you mean " + dashed(nearest) + "?)"));
    }
}

bool Options::flag(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return false;
    if (it->second) throw UsageError(dashed(name) + " takes no value, got '" + *it->second + "'");
    return true;
}

std::string Options::required(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) throw UsageError(dashed(name) + " is required");
    if (!it->second) throw UsageError(dashed(name) + " needs a value");
    return *it->second;
}

std::string Options::value_or(const std::string& name, const std::string& fallback) const {
    return has(name) ? required(name) : fallback;
}

std::int64_t Options::integer(const std::string& name, std::int64_t lo, std::int64_t hi) const {
    const std::string s = required(name);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        throw UsageError(dashed(name) + " needs a whole number, got '" + s + "'");
    if (v < lo || v > hi)
        throw UsageError(dashed(name) + " must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + ", got " + s);
    return v;
}

std::int64_t Options::integer_or(const std::string& name, std::int64_t fallback, std::int64_t lo,
                                 std::int64_t hi) const {
    return has(name) ? integer(name, lo, hi) : fallback;
}

std::optional<double> Options::real(const std::string& name, double lo, double hi,
                                    bool hi_exclusive) const {
    if (!has(name)) return std::nullopt;
    const std::string s = required(name);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
        throw UsageError(dashed(name) + " needs a number, got '" + s + "'");
    if (v < lo || v > hi || (hi_exclusive && v == hi))
        throw UsageError(dashed(name) + " must be in [" + std::to_string(lo).substr(0, 4) + ", " +
                         std::to_string(hi).substr(0, 4) + (hi_exclusive ? ")" : "]") + ", got " +
                         s);
    return v;
}

std::string Options::choice(const std::string& name, const std::string& fallback,
                            std::initializer_list<const char*> choices) const {
    if (!has(name)) return fallback;
    const std::string s = required(name);
    std::string list;
    for (const char* c : choices) {
        if (s == c) return s;
        list += (list.empty() ? "" : ", ") + std::string(c);
    }
    throw UsageError(dashed(name) + " must be one of " + list + ", got '" + s + "'");
}

}  // namespace attnviz::io
