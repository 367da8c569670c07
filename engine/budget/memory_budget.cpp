#include "engine/budget/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace attnviz::budget {

namespace {

// cgroup v1 writes "no limit" as a huge page-rounded number (9223372036854771712).
constexpr std::uint64_t kUnlimited = std::uint64_t(1) << 62;

std::optional<std::uint64_t> read_limit(const std::string& path) {
    std::ifstream in(path);
    std::string word;
    if (!(in >> word) || word == "max") return std::nullopt;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(word.c_str(), &end, 10);
    if (end == word.c_str() || *end != '\0' || v == 0 || v >= kUnlimited) return std::nullopt;
    return std::uint64_t(v);
}

/// The lowest limit in `file` of the cgroup at `path` under `mount` and of each parent.
std::optional<std::uint64_t> lowest_along(const std::string& mount, std::string path,
                                          const char* file) {
    std::optional<std::uint64_t> lowest;
    for (;;) {
        while (path.size() > 1 && path.back() == '/')
            path.pop_back();
        const std::string dir = path == "/" ? mount : mount + path;
        if (const auto v = read_limit(dir + "/" + file)) lowest = std::min(lowest.value_or(*v), *v);
        if (path.empty() || path == "/") return lowest;
        const auto slash = path.rfind('/');
        path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
}

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

}  // namespace

std::optional<std::uint64_t> cgroup_memory_limit(const std::string& proc_self_cgroup,
                                                 const std::string& cgroup_root) {
    std::optional<std::uint64_t> lowest;
    auto take = [&](std::optional<std::uint64_t> v) {
        if (v) lowest = std::min(lowest.value_or(*v), *v);
    };
    std::istringstream lines(proc_self_cgroup);
    std::string line;
    while (std::getline(lines, line)) {
        // "hierarchy-id:controllers:path"; v2 is "0::path".
        const auto a = line.find(':');
        const auto b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
        const std::string path = line.substr(b + 1);
        if (path.empty() || path[0] != '/') continue;
        if (id == "0" && controllers.empty()) {
            take(lowest_along(cgroup_root, path, "memory.max"));
            take(lowest_along(cgroup_root + "/unified", path, "memory.max"));
        } else {
            std::istringstream names(controllers);
            std::string name;
            while (std::getline(names, name, ','))
                if (name == "memory")
                    take(lowest_along(cgroup_root + "/memory", path, "memory.limit_in_bytes"));
        }
    }
    return lowest;
}

std::uint64_t usable_memory_bytes() {
    std::uint64_t physical = 0;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) physical = std::uint64_t(pages) * std::uint64_t(page);
    std::ifstream in("/proc/self/cgroup");
    std::stringstream text;
    text << in.rdbuf();
    const auto limit = cgroup_memory_limit(text.str(), "/sys/fs/cgroup");
    if (limit && (physical == 0 || *limit < physical)) return *limit;
    return physical;
}

std::uint64_t parse_memory_size(std::string_view text_view, std::uint64_t memory) {
    const std::string text = trim(text_view);
    auto bad = [&](const std::string& why) -> std::invalid_argument {
        return std::invalid_argument("'" + text + "' " + why);
    };
    const char* const kForm = "is not a memory size (e.g. 2G, 512M or 60%)";
    if (text.empty()) throw bad(kForm);
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        throw bad(kForm);
    }
    if (!(value > 0.0) || !std::isfinite(value) || text[0] == '+' || text[0] == '-' ||
        !std::isdigit(static_cast<unsigned char>(text[0])) ||
        text.find_first_of("eExXpP") < used)  // no exponents, hex or inf
        throw bad(kForm);
    std::string unit = trim(std::string_view(text).substr(used));
    for (char& c : unit)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    double bytes = 0.0;
    if (unit == "%") {
        if (value > 100.0) throw bad("is more than 100% of the memory");
        if (memory == 0) throw bad("is a share of the memory, which cannot be read here");
        bytes = std::floor(double(memory) * value / 100.0);
    } else {
        if (!unit.empty() && unit.back() == 'b') unit.pop_back();  // "MB", "MiB", "B"
        if (!unit.empty() && unit.back() == 'i' && unit.size() == 2) unit.pop_back();
        static const std::pair<const char*, double> kUnits[] = {{"", 1.0},
                                                                {"k", 1024.0},
                                                                {"m", 1024.0 * 1024},
                                                                {"g", 1024.0 * 1024 * 1024},
                                                                {"t", 1024.0 * 1024 * 1024 * 1024}};
        bool known = false;
        for (const auto& [name, factor] : kUnits)
            if (unit == name) {
                bytes = std::floor(value * factor);
                known = true;
            }
        if (!known) throw bad(kForm);
    }
    if (bytes >= double(kUnlimited)) throw bad("is more memory than any machine has");
    if (bytes < double(kMinBudgetBytes))
        throw bad("is below the smallest budget, " + format_bytes(kMinBudgetBytes));
    return std::uint64_t(bytes);
}

std::string format_bytes(std::uint64_t bytes) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = double(bytes);
    int unit = 0;
    // Rounding to three digits may reach 1024 ("1024 KiB"): step up before that.
    while (unit < 5 && v >= 1023.5) {
        v /= 1024.0;
        ++unit;
    }
    if (unit == 0) return std::to_string(bytes) + " B";
    return number_text(v) + " " + kUnits[unit];
}

MemoryBudget resolve_memory_budget(std::string_view option, std::string_view setting,
                                   std::uint64_t memory, bool environment) {
    MemoryBudget b;
    b.memory = memory;
    if (!trim(option).empty()) {
        try {
            b.bytes = parse_memory_size(option, memory);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("--memory-budget ") + e.what());
        }
        b.source = MemoryBudget::Source::Option;
        b.text = trim(option);
        return b;
    }
    if (const char* env = environment ? std::getenv(kBudgetEnvironmentVariable) : nullptr;
        env && !trim(env).empty()) {
        try {
            b.bytes = parse_memory_size(env, memory);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string(kBudgetEnvironmentVariable) + ": " + e.what());
        }
        b.source = MemoryBudget::Source::Environment;
        b.text = trim(env);
        return b;
    }
    if (!trim(setting).empty()) {
        try {
            b.bytes = parse_memory_size(setting, memory);
            b.source = MemoryBudget::Source::Setting;
            b.text = trim(setting);
            return b;
        } catch (const std::invalid_argument&) {
            // A stale or hand-edited setting falls back to the default.
        }
    }
    b.source = MemoryBudget::Source::Default;
    // Unknown memory (no /proc, no sysconf): a budget that lets teaching-sized inputs run.
    b.bytes =
        memory ? std::uint64_t(double(memory) * kDefaultBudgetFraction) : std::uint64_t(2) << 30;
    return b;
}

MemoryBudget resolve_app_budget(std::string_view setting, std::string* problem) {
    try {
        return resolve_memory_budget("", setting);
    } catch (const std::invalid_argument& e) {
        if (problem) *problem = e.what();
        return resolve_memory_budget("", setting, usable_memory_bytes(), /*environment=*/false);
    }
}

std::string describe_budget(const MemoryBudget& b) {
    const std::string amount = format_bytes(b.bytes);
    switch (b.source) {
        case MemoryBudget::Source::Option:
            return amount + " (--memory-budget " + b.text + ")";
        case MemoryBudget::Source::Environment:
            return amount + " (" + kBudgetEnvironmentVariable + "=" + b.text + ")";
        case MemoryBudget::Source::Setting:
            return amount + " (the app's setting)";
        case MemoryBudget::Source::Default:
            break;
    }
    if (!b.memory) return amount + " (the default)";
    return amount + " (the default: " + std::to_string(int(kDefaultBudgetFraction * 100)) +
           "% of " + format_bytes(b.memory) + ")";
}

int ResultScope::kept_heads(int num_heads) const {
    return heads_shown < 0 ? num_heads : std::min(heads_shown, num_heads);
}

AxisWindow window_on(const ResultScope& scope, std::int64_t size) {
    if (size <= 0) return {0, 0};
    if (!scope.windowed() || scope.window_length >= size) return {0, size};
    const std::int64_t count = scope.window_length;
    const std::int64_t begin = std::clamp<std::int64_t>(scope.window_start, 0, size - count);
    return {begin, count};
}

namespace {
/// The largest value in [lo, hi] for which fits() holds, given that it holds for no value
/// above one where it fails; nullopt when not even lo fits.
template <typename T, typename Fits>
std::optional<T> largest_fitting(T lo, T hi, Fits fits) {
    if (hi < lo || !fits(lo)) return std::nullopt;
    while (lo < hi) {
        const T mid = lo + (hi - lo + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
}  // namespace

MemoryPlan plan_memory(const FootprintFn& footprint, const ResultScope& requested, int num_heads,
                       std::int64_t tokens, std::uint64_t budget, std::int64_t max_window,
                       std::vector<std::int64_t> layers) {
    MemoryPlan plan;
    plan.budget = budget;
    plan.num_heads = num_heads;
    plan.tokens = tokens;
    plan.layers = std::move(layers);
    plan.requested = requested;
    plan.needed = footprint(requested);
    if (plan.fits()) return plan;

    const int kept = requested.kept_heads(num_heads);
    if (kept > 1) {
        auto with_heads = [&](int k) {
            ResultScope s = requested;
            s.heads_shown = k;
            return s;
        };
        if (const auto k = largest_fitting<int>(
                1, kept - 1, [&](int v) { return footprint(with_heads(v)) <= budget; })) {
            plan.fewer_heads = with_heads(*k);
            plan.fewer_heads_bytes = footprint(*plan.fewer_heads);
        }
    }
    const std::int64_t length = window_on(requested, tokens).count;
    if (length > 1) {
        auto with_window = [&](std::int64_t w) {
            ResultScope s = requested;
            s.window_length = w;
            s.window_start = window_on(s, tokens).begin;
            return s;
        };
        const std::int64_t longest = max_window > 0 ? std::min(length - 1, max_window) : length - 1;
        if (const auto w = largest_fitting<std::int64_t>(
                1, longest, [&](std::int64_t v) { return footprint(with_window(v)) <= budget; })) {
            plan.window = with_window(*w);
            plan.window_bytes = footprint(*plan.window);
        }
    }
    const int kept_layers =
        requested.layers_shown < 0
            ? static_cast<int>(plan.layers.size())
            : std::min<int>(requested.layers_shown, static_cast<int>(plan.layers.size()));
    if (kept_layers > 1) {
        auto with_layers = [&](int k) {
            ResultScope s = requested;
            s.layers_shown = k;
            return s;
        };
        if (const auto k = largest_fitting<int>(
                1, kept_layers - 1, [&](int v) { return footprint(with_layers(v)) <= budget; })) {
            plan.fewer_layers = with_layers(*k);
            plan.fewer_layers_bytes = footprint(*plan.fewer_layers);
        }
    }
    if (kept > 0) {
        ResultScope s = requested;
        s.heads_shown = 0;
        const std::uint64_t bytes = footprint(s);
        if (bytes <= budget) {
            plan.mean_only = s;
            plan.mean_only_bytes = bytes;
        }
    }
    return plan;
}

WeightsPlan plan_weights(std::uint64_t kept, std::uint64_t streaming, std::uint64_t others,
                         std::uint64_t budget) {
    WeightsPlan p;
    p.kept = kept;
    p.streaming = std::min(streaming, kept);
    p.stream = others > budget || kept > budget - others;
    return p;
}

std::string plan_message(const MemoryPlan& plan, const MemoryBudget& budget) {
    std::string m = "needs " + format_bytes(plan.needed);
    if (plan.weights > 0)
        m += " (" + format_bytes(plan.weights) + " of it for the weights, streamed layer by layer)";
    m += ", more than the memory budget of " + describe_budget(budget);
    std::vector<std::string> offers;
    if (plan.fewer_layers)
        offers.push_back("--layers " +
                         layers_spec({plan.layers.begin(),
                                      plan.layers.begin() + plan.fewer_layers->layers_shown}));
    if (plan.fewer_heads)
        offers.push_back("--heads-shown " + std::to_string(plan.fewer_heads->heads_shown));
    if (plan.window)
        // The command line's --window counts tokens from 1.
        offers.push_back("--window " + std::to_string(plan.window->window_start + 1) + ":" +
                         std::to_string(plan.window->window_length));
    if (plan.mean_only) offers.push_back("--mean-only");
    if (offers.empty())
        return m +
               "; nothing smaller fits either: use fewer tokens, a smaller embed_dim or a "
               "larger --memory-budget";
    m += "; what fits: ";
    for (const std::string& o : offers)
        m += o + ", ";
    return m + "or a larger --memory-budget";
}

std::string layers_spec(const std::vector<std::int64_t>& layers) {
    std::string out;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t j = i;
        while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1)
            ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(layers[i] + 1);  // the command line counts layers from 1
        if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(layers[j] + 1);
        i = j + 1;
    }
    return out;
}

std::vector<std::int64_t> parse_layers_spec(std::string_view spec, std::int64_t num_layers) {
    std::vector<bool> chosen(static_cast<std::size_t>(std::max<std::int64_t>(num_layers, 0)));
    const std::string all_text(spec);
    auto fail = [&](const std::string& part, const std::string& why) {
        throw std::invalid_argument("--layers '" + all_text + "': " + part + " " + why);
    };
    auto number = [&](std::string_view t, const std::string& part) {
        std::int64_t v = 0;
        const bool negative = !t.empty() && t.front() == '-';
        if (negative) t.remove_prefix(1);
        if (t.empty() || t.size() > 9 ||
            t.find_first_not_of("0123456789") != std::string_view::npos)
            fail(part, "is not a layer number");
        for (char c : t)
            v = v * 10 + (c - '0');
        // From 1, as every layer a user sees is numbered; -1: the last layer.
        v = negative ? num_layers - v : v - 1;
        if (v < 0 || v >= num_layers)
            fail(part, "is not a layer: the model has layers 1 to " + std::to_string(num_layers));
        return v;
    };
    if (spec == "all" || spec.empty()) {
        std::vector<std::int64_t> out(chosen.size());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<std::int64_t>(i);
        return out;
    }
    while (!spec.empty()) {
        const auto comma = spec.find(',');
        const std::string_view part = spec.substr(0, comma);
        const std::string p(part);
        const auto dash = part.find('-', 1);
        std::int64_t a, b;
        if (dash == std::string_view::npos) {
            a = b = number(part, p);
        } else {
            a = number(part.substr(0, dash), p);
            b = number(part.substr(dash + 1), p);
            if (b < a) fail(p, "runs backwards");
        }
        for (std::int64_t l = a; l <= b; ++l)
            chosen[static_cast<std::size_t>(l)] = true;
        if (comma == std::string_view::npos) break;
        spec.remove_prefix(comma + 1);
        if (spec.empty()) fail(p + ",", "ends with a comma");
    }
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < chosen.size(); ++i)
        if (chosen[i]) out.push_back(static_cast<std::int64_t>(i));
    return out;
}

MemoryBudgetExceeded::MemoryBudgetExceeded(MemoryPlan plan, MemoryBudget budget)
    : DataError(plan_message(plan, budget)), plan_(std::move(plan)), budget_(std::move(budget)) {}

}  // namespace attnviz::budget
