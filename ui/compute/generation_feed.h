// What the generation timeline's writer computed for each new token, handed to the window's
// compute worker: the token's attention rows, taken from the writer's key/value cache, and the
// prediction at the position before it.  While the writer runs, the worker extends the maps it
// drew by these rows (extend_model) instead of running the continued text again; once the
// writer stops, a full pass replaces them.  The writer adds, the worker reads: thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/models/predictions.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// One new token, as the writer's step saw it (models::GenerationStep).
struct FedToken {
    std::int64_t id = 0;
    /// [layers, heads, position + 1]: each head's attention row of this token over every token
    /// up to it.
    Tensor attention;
    std::vector<models::TokenScore> top;  ///< at the position before it: the likeliest tokens
    double logprob = 0.0;                 ///< log p(this token | the text before it)
};

/// A writer's step as the feed keeps it: the token's rows, and the prediction at the position
/// before it (its ModelPredictions::kTop likeliest tokens, and the token's log-probability)
/// from the logits it was chosen from.
FedToken fed_token(models::GenerationStep&& step);

class GenerationFeed {
  public:
    /// Past this many bytes of rows not yet taken the oldest are dropped: the worker then runs
    /// the whole text instead.
    static constexpr std::size_t kMaxBytes = std::size_t{256} << 20;

    /// A writer starts continuing `config`'s text (with config.shownGenerated()); what the
    /// feed held goes.  Returns the writer's number, for add().
    std::uint64_t open(const ComputeConfig& config);
    /// The next token of the writer opened last (ignored once closed or finished).
    void add(FedToken token);
    /// The next token of writer `writer`: ignored unless it is the one opened last and neither
    /// finish() nor close() was called since (a stopped writer may still be ending its step).
    void add(FedToken token, std::uint64_t writer);
    /// The writer has stopped; the tokens it handed over are still served until close().
    void finish();
    /// A writer runs: between open() and finish().
    bool isWriting() const;
    /// Nothing more is served or added: the worker runs whole passes again.
    void close();
    bool isOpen() const;
    /// The tokens that take `config`'s text from its first `from` generated tokens to all of
    /// config.shownGenerated(), in order; none when the feed is closed or does not hold every
    /// one of them (another text, dropped, or not written yet).
    std::optional<std::vector<FedToken>> tokens(const ComputeConfig& config,
                                                std::size_t from) const;
    /// Drops the rows of the generated tokens before `count`: the worker's maps hold them.
    void forget(std::size_t count);
    /// The window has shown a snapshot of `config`: when it continues the writer's text, every
    /// generated token it holds has been drawn.
    void shown(const ComputeConfig& config);
    /// Waits until the window has shown every token added (shown()), the writer has finished,
    /// the feed is closed, or `max` has passed; true unless `max` passed.  The writer's pace
    /// (GenerationRunner).
    bool waitShown(std::chrono::milliseconds max) const;

  private:
    /// How many of the writer's tokens `config`'s continuation holds, when it is the writer's
    /// text continued by exactly its first tokens; the lock held.
    std::optional<std::size_t> writtenIn(const ComputeConfig& config) const;

    mutable std::mutex mutex_;
    mutable std::condition_variable shown_cv_;
    bool open_ = false, writing_ = false;
    std::uint64_t writer_ = 0;       ///< the writer opened last
    ComputeConfig base_;             ///< the text continued, with its first generated tokens
    std::vector<std::int64_t> ids_;  ///< every token the writer added, in order
    std::size_t first_ = 0;          ///< index into ids_ of rows_.front()
    std::deque<FedToken> rows_;      ///< the tokens from first_ on
    std::size_t bytes_ = 0;          ///< of rows_' attention
    /// How many of ids_ the window has shown: the snapshot shown last held them.
    std::size_t shown_ = 0;
};

}  // namespace attnviz::ui
