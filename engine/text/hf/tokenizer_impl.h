// HfTokenizer's private state, shared by the pipeline (hf_tokenizer.cpp) and the readers of
// tokenizer.json and vocabulary folders (loader.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/text/hf/components.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace attnviz::text {

struct HfTokenizer::Impl {
    std::string name;  ///< the file it came from, for messages
    std::string kind;
    std::unique_ptr<hf::Normalizer> normalizer;
    std::unique_ptr<hf::PreTokenizer> pre_tokenizer;
    std::unique_ptr<hf::Model> model;
    std::unique_ptr<hf::PostProcessor> post_processor;
    hf::AddedVocabulary added;
    /// Tokens are byte-level strings (a ByteLevel pre-tokenizer): decode them for display.
    bool byte_level = false;
    /// BPE with byte_fallback: "<0xE7>" tokens stand for one byte.
    bool byte_fallback = false;
    /// tokenizer_config.json's bos_token, when the post-processor adds none.
    std::optional<std::uint32_t> config_bos;
    /// tokenizer_config.json's model_max_length when it is a limit (transformers writes 1e30,
    /// its VERY_LARGE_INTEGER, for "none").
    std::optional<std::int64_t> model_max_length;

    /// One text through added tokens, normaliser, pre-tokenizer and model, offsets in code
    /// points of `text` (already valid UTF-8).
    hf::EncTokens encode_sequence(std::string_view text, std::uint32_t type_id) const;
    std::string token_string(std::uint32_t id) const;
};

namespace hf {

/// Builds a tokenizer from the text of a tokenizer.json (loader.cpp); with `lists`, the
/// model's vocabulary and merges are theirs and the JSON's model has none.
std::unique_ptr<HfTokenizer::Impl> load_tokenizer_json(std::string_view json,
                                                       const std::string& name,
                                                       const ModelLists* lists = nullptr);
/// Builds a tokenizer from a model folder (loader.cpp).
std::unique_ptr<HfTokenizer::Impl> load_folder(const std::string& folder);

}  // namespace hf

}  // namespace attnviz::text
