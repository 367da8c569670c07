#include "ui/compute/generation_feed.h"

#include <algorithm>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

namespace {
/// Whether `c` continues the text the feed's writer continues: the same model, text and
/// knock-outs (none), a single text, and its continuation starting with the writer's start.
bool same_text(const ComputeConfig& base, const ComputeConfig& c) {
    if (!c.usesModel() || c.usesMaps() || c.model_folder != base.model_folder ||
        c.text_a != base.text_a || c.pair_mode != PairMode::Single ||
        base.pair_mode != PairMode::Single || !c.knocked_out.empty() || !base.knocked_out.empty())
        return false;
    const std::vector<qint64> start = base.shownGenerated(), shown = c.shownGenerated();
    return shown.size() >= start.size() && std::equal(start.begin(), start.end(), shown.begin());
}
}  // namespace

FedToken fed_token(models::GenerationStep&& step) {
    FedToken t;
    t.id = step.id;
    const auto V = std::int64_t(step.logits.numel());
    t.top = models::top_k(step.logits.ptr(), V, ModelPredictions::kTop);
    t.logprob = models::log_softmax(step.logits.ptr(), V)[std::size_t(step.id)];
    t.attention = std::move(step.attention);
    return t;
}

std::uint64_t GenerationFeed::open(const ComputeConfig& config) {
    std::uint64_t writer = 0;
    {
        std::lock_guard lock(mutex_);
        open_ = writing_ = true;
        base_ = config;
        ids_.clear();
        rows_.clear();
        first_ = 0;
        bytes_ = 0;
        shown_ = 0;
        writer = ++writer_;
    }
    shown_cv_.notify_all();  // a stopped writer still waiting: its rows are gone
    return writer;
}

void GenerationFeed::add(FedToken token) {
    std::uint64_t writer = 0;
    {
        std::lock_guard lock(mutex_);
        writer = writer_;
    }
    add(std::move(token), writer);
}

void GenerationFeed::add(FedToken token, std::uint64_t writer) {
    std::lock_guard lock(mutex_);
    if (!open_ || !writing_ || writer != writer_) return;
    ids_.push_back(token.id);
    bytes_ += token.attention.numel() * sizeof(float);
    rows_.push_back(std::move(token));
    while (bytes_ > kMaxBytes && !rows_.empty()) {
        bytes_ -= rows_.front().attention.numel() * sizeof(float);
        rows_.pop_front();
        ++first_;
    }
}

void GenerationFeed::finish() {
    {
        std::lock_guard lock(mutex_);
        writing_ = false;
    }
    shown_cv_.notify_all();
}

bool GenerationFeed::isWriting() const {
    std::lock_guard lock(mutex_);
    return writing_;
}

void GenerationFeed::close() {
    {
        std::lock_guard lock(mutex_);
        open_ = writing_ = false;
        rows_.clear();
        bytes_ = 0;
    }
    shown_cv_.notify_all();
}

bool GenerationFeed::isOpen() const {
    std::lock_guard lock(mutex_);
    return open_;
}

std::optional<std::size_t> GenerationFeed::writtenIn(const ComputeConfig& config) const {
    if (!open_ || !same_text(base_, config)) return std::nullopt;
    const std::vector<qint64> shown = config.shownGenerated();
    const std::size_t start = base_.shownGenerated().size();
    // shown must continue the text with exactly the writer's tokens, from the first it wrote.
    if (shown.size() > start + ids_.size()) return std::nullopt;
    for (std::size_t k = start; k < shown.size(); ++k)
        if (shown[k] != ids_[k - start]) return std::nullopt;
    return shown.size() - start;
}

std::optional<std::vector<FedToken>> GenerationFeed::tokens(const ComputeConfig& config,
                                                            std::size_t from) const {
    std::lock_guard lock(mutex_);
    const std::optional<std::size_t> written = writtenIn(config);
    const std::size_t start = base_.shownGenerated().size();
    if (!written || from < start + first_ || from >= start + *written) return std::nullopt;
    std::vector<FedToken> out;
    for (std::size_t k = from; k < start + *written; ++k)
        out.push_back(rows_[k - start - first_]);
    return out;
}

void GenerationFeed::forget(std::size_t count) {
    std::lock_guard lock(mutex_);
    const std::size_t start = base_.shownGenerated().size();
    while (!rows_.empty() && start + first_ < count) {
        bytes_ -= rows_.front().attention.numel() * sizeof(float);
        rows_.pop_front();
        ++first_;
    }
}

void GenerationFeed::shown(const ComputeConfig& config) {
    {
        std::lock_guard lock(mutex_);
        const std::optional<std::size_t> written = writtenIn(config);
        if (!written || *written <= shown_) return;
        shown_ = *written;
    }
    shown_cv_.notify_all();
}

bool GenerationFeed::waitShown(std::chrono::milliseconds max) const {
    std::unique_lock lock(mutex_);
    return shown_cv_.wait_for(lock, max,
                              [&] { return shown_ >= ids_.size() || !writing_ || !open_; });
}

}  // namespace attnviz::ui
