// A Hugging Face model folder as a whole: the model and the tokenizer its files describe, and
// the text → ids → attention path every front end (command line, window) shares.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/models/model.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace attnviz::models {

struct OpenedModel {
    std::unique_ptr<Model> model;
    text::HfTokenizer tokenizer;
};

/// config.json, the weights (headers only) and the tokenizer files.  Throws DataError naming
/// the file and the problem; nothing half-loaded is returned.
OpenedModel open_model_folder(const std::string& folder);

struct EncodedText {
    text::Encoding encoding;
    ModelInput input;
};

/// The encoding the model sees for `text` (and `text2`, the pair encoding): special tokens
/// added as tokenizer(text) adds them.  Throws std::invalid_argument for an empty text or one
/// longer than the model's positions (naming both lengths).
EncodedText encode_text(const OpenedModel& m, std::string_view text,
                        std::optional<std::string_view> text2 = std::nullopt);

/// `attnviz inspect`: one JSON object with the architecture, sizes, dtype, parameter count,
/// tokenizer kind and special tokens.
std::string inspect_json(const OpenedModel& m);

/// `attnviz tokenize --model`: {"ids", "tokens", "text", "offsets", "special", "type_ids"}.
std::string encoding_json(const text::Encoding& e);

}  // namespace attnviz::models
