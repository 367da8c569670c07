// How much memory one computation may take, and what still fits when a configuration does
// not.  The command line and the window share all of it: the same budget (option, then
// ATTNVIZ_MEMORY_BUDGET, then the app setting, then a fraction of the machine's memory), the
// same search for offers over the caller's own estimate, so both refuse and offer alike.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/errors.h"

namespace attnviz {}  // namespace attnviz

namespace attnviz::budget {

/// The default budget: this fraction of usable_memory_bytes().
inline constexpr double kDefaultBudgetFraction = 0.5;
inline constexpr const char* kBudgetEnvironmentVariable = "ATTNVIZ_MEMORY_BUDGET";
/// The smallest budget accepted: below it not even the app's own figures fit.
inline constexpr std::uint64_t kMinBudgetBytes = std::uint64_t(1) << 20;

/// The machine's physical memory, or the memory limit of this process's cgroup (v2
/// memory.max, v1 memory.limit_in_bytes, the lowest along its path) when that is lower.
/// 0 if neither can be read.
std::uint64_t usable_memory_bytes();

/// The cgroup limit from the text of /proc/self/cgroup and a cgroup mount point (normally
/// /sys/fs/cgroup); nullopt when there is none.  Separate for tests.
std::optional<std::uint64_t> cgroup_memory_limit(const std::string& proc_self_cgroup,
                                                 const std::string& cgroup_root);

/// "2G", "512M", "1.5GiB", "64k", "300MB", "1000000" (bytes) or "60%" (of `memory`);
/// K, M, G and T count in 1024s, with or without "i" and "B".  Throws std::invalid_argument
/// naming the text when it is not a size, is below kMinBudgetBytes, or is a percentage
/// while `memory` is unknown (0).
std::uint64_t parse_memory_size(std::string_view text, std::uint64_t memory);

/// "1.5 GiB", "512 MiB", "12 KiB", "900 B": three significant digits at most.
std::string format_bytes(std::uint64_t bytes);

struct MemoryBudget {
    enum class Source { Default, Setting, Environment, Option };
    std::uint64_t bytes = 0;
    Source source = Source::Default;
    std::string text;          ///< the value as given ("60%"); empty for the default
    std::uint64_t memory = 0;  ///< usable memory it was computed from
};

/// The budget in force.  Precedence: `option` (the command line's --memory-budget), the
/// ATTNVIZ_MEMORY_BUDGET environment variable (unless `environment` is false), `setting`
/// (the app's preference), then kDefaultBudgetFraction of `memory`.  Empty strings count as
/// absent.  Throws std::invalid_argument (naming the option or variable) for a value that
/// is not a size.  A bad setting is ignored: it cannot be fixed from the command line.
MemoryBudget resolve_memory_budget(std::string_view option, std::string_view setting,
                                   std::uint64_t memory = usable_memory_bytes(),
                                   bool environment = true);

/// The desktop app's budget: ATTNVIZ_MEMORY_BUDGET, then `setting`, then the default.  The
/// app must start whatever the environment says, so a variable that is not a size is
/// skipped and `problem` (when given) receives why; otherwise it is left empty.
MemoryBudget resolve_app_budget(std::string_view setting, std::string* problem = nullptr);

/// "2 GiB (--memory-budget 2G)", "2 GiB (ATTNVIZ_MEMORY_BUDGET=2G)", "2 GiB (the default:
/// 50% of 4 GiB)", "2 GiB (the app's setting)".
std::string describe_budget(const MemoryBudget& budget);

/// What part of the attention a computation keeps.  Every offer changes only this.
struct ResultScope {
    int heads_shown = -1;  ///< per-head weights of heads [0, k); -1 all; 0 the mean only
    /// A model's maps of the first k of the requested layers; -1 every requested layer.
    int layers_shown = -1;
    std::int64_t window_start = 0;   ///< first token of the window
    std::int64_t window_length = 0;  ///< 0: every token

    bool mean_only() const { return heads_shown == 0; }
    bool windowed() const { return window_length > 0; }
    /// Heads whose weights are kept, of `num_heads`.
    int kept_heads(int num_heads) const;
    bool operator==(const ResultScope&) const = default;
};

/// The window on one sequence of `size` tokens: [begin, begin + count).  The whole sequence
/// without a window; otherwise `window_length` tokens (at most `size`) from `window_start`,
/// moved back so that it ends at the last token at the latest.
struct AxisWindow {
    std::int64_t begin = 0, count = 0;
    bool operator==(const AxisWindow&) const = default;
};
AxisWindow window_on(const ResultScope& scope, std::int64_t size);

/// Bytes a computation allocates with a given scope (the caller's own estimate).
using FootprintFn = std::function<std::uint64_t(const ResultScope&)>;

/// The verdict on a configuration, with what fits instead when it does not.
struct MemoryPlan {
    std::uint64_t needed = 0;
    std::uint64_t budget = 0;
    int num_heads = 0;
    std::int64_t tokens = 0;  ///< the longest sequence
    /// A model's requested layers, ascending (empty for a single attention layer).
    std::vector<std::int64_t> layers;
    ResultScope requested;
    /// Each offer changes one thing of `requested` as little as possible and fits:
    /// the most heads (fewer than requested) whose weights fit, the longest window (shorter
    /// than requested, from the same start), or the mean only.
    std::optional<ResultScope> fewer_heads, window, mean_only, fewer_layers;
    std::uint64_t fewer_heads_bytes = 0, window_bytes = 0, mean_only_bytes = 0;
    std::uint64_t fewer_layers_bytes = 0;
    /// Of `needed`: a model's weights as they stream (WeightsPlan::streaming); 0 for a single
    /// attention layer.  Every offer keeps them: they are the least a model needs.
    std::uint64_t weights = 0;

    bool fits() const { return needed <= budget; }
    bool any_offer() const { return fewer_heads || window || mean_only || fewer_layers; }
};

/// Estimates `requested`; when it is over `budget`, searches the offers (the footprint must
/// not shrink when heads or the window grow).  Never allocates what it estimates.  A window
/// offer is at most `max_window` tokens when that is positive (the window caps it: larger
/// windows fit in memory but take long to compute and draw).
/// With `layers` (a model's requested layers) it also offers the most of them, from the first,
/// whose maps fit.
MemoryPlan plan_memory(const FootprintFn& footprint, const ResultScope& requested, int num_heads,
                       std::int64_t tokens, std::uint64_t budget, std::int64_t max_window = 0,
                       std::vector<std::int64_t> layers = {});

/// How a model's weights are held under a budget: converted to float32 once and kept when
/// they fit beside everything else the computation takes, else streamed: each layer is
/// converted into one reusable buffer just before it runs.
struct WeightsPlan {
    std::uint64_t kept = 0;       ///< every weight in float32 (Model::weight_bytes)
    std::uint64_t streaming = 0;  ///< one layer's buffer and the small global weights
    bool stream = false;
    /// What the weights take: streaming or kept.
    std::uint64_t resident() const { return stream ? streaming : kept; }
};

/// The plan for weights of `kept` bytes in float32 (`streaming` while they stream) beside
/// `others` bytes (maps, activations, a key/value cache) under `budget` bytes: kept when
/// others + kept fits, else streamed (whether others + streaming fits is plan_memory's to say).
WeightsPlan plan_weights(std::uint64_t kept, std::uint64_t streaming, std::uint64_t others,
                         std::uint64_t budget);

/// "1-4,8,10-12": the (0-based) layers, ascending, as the command line's --layers takes them,
/// counted from 1.
std::string layers_spec(const std::vector<std::int64_t>& layers);
/// Parses a --layers value ("all", "3", "1-4,8", "-1" for the last; counted from 1) against
/// `num_layers` into 0-based layers, ascending without repeats.  Throws std::invalid_argument
/// naming the part that is not a layer.
std::vector<std::int64_t> parse_layers_spec(std::string_view spec, std::int64_t num_layers);

/// One line for the command line: what is needed, the budget, and the options that fit:
/// "needs 3.1 GiB, more than the memory budget of 2 GiB (the default: 50% of 4 GiB); what
/// fits: --heads-shown 2, --window 1:1500, --mean-only, or a larger --memory-budget".
std::string plan_message(const MemoryPlan& plan, const MemoryBudget& budget);

/// Thrown instead of allocating a configuration over the budget; what() is plan_message().
class MemoryBudgetExceeded : public DataError {
  public:
    MemoryBudgetExceeded(MemoryPlan plan, MemoryBudget budget);
    const MemoryPlan& plan() const { return plan_; }
    const MemoryBudget& budget() const { return budget_; }

  private:
    MemoryPlan plan_;
    MemoryBudget budget_;
};

}  // namespace attnviz::budget
