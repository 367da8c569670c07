// The induction test text of the window's knock-out tests: R + R, R 50 random letters and
// digits (seed 3).  attn-only-2l adds <|bos|>: 101 pieces, the second copy is pieces 51..100,
// what an induction head predicts (test_predictions knockingOutTheInductionHead).
#pragma once

#include <QString>

#include <random>
#include <string>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::test {

inline QString repeated_text() {
    const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::mt19937_64 rng(3);
    std::string r;
    for (int i = 0; i < 50; ++i)
        r += alphabet[rng() % alphabet.size()];
    return QString::fromStdString(r + r);
}

/// The mean of −log p over the second copy's predictions (positions 51.. of 101 pieces).
inline double second_copy_loss(const ui::ModelPredictions& p) {
    double sum = 0.0;
    for (std::size_t t = 51; t < p.next_logprob.size(); ++t)
        sum -= p.next_logprob[t];
    return sum / double(p.next_logprob.size() - 51);
}

}  // namespace attnviz::test
