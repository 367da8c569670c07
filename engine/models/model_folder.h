// A Hugging Face model folder as a whole: the model and the tokenizer its files describe, and
// the text → ids → attention path every front end (command line, window) shares.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/errors.h"
#include "engine/models/model.h"
#include "engine/models/predictions.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace attnviz::models {

struct OpenedModel {
    std::unique_ptr<Model> model;
    text::HfTokenizer tokenizer;
};

/// config.json, the weights (headers only) and the tokenizer files; or a GGUF file
/// (engine/models/gguf_model.h), its tokenizer from its metadata; or an ollama manifest, the
/// GGUF blob of its model layer (local_models.h).  Throws DataError naming
/// the file and the problem; nothing half-loaded is returned.  A folder with tokenizer files
/// and no weights at all is refused with a message that says it is a tokenizer alone.
OpenedModel open_model_folder(const std::string& folder);

/// A folder's tokenizer, without its weights: what tokenizing needs, and all that a
/// tokenizer-only folder (AutoTokenizer.save_pretrained) has.
struct OpenedTokenizer {
    text::HfTokenizer tokenizer;
    TokenizerSideConfig config;  ///< config.json's model_type, vocab_size, positions, if any
    bool has_weights = false;    ///< the folder also holds weights (of some format)
    /// The positions a model of this folder takes: config.json's, else tokenizer_config.json's
    /// model_max_length; 0: no limit known.
    std::int64_t max_positions() const;
};
OpenedTokenizer open_tokenizer_folder(const std::string& folder);

/// A folder holding tokenizer files and no weights of any format, or a GGUF file without
/// tensors (a vocabulary alone).
bool is_tokenizer_only(const std::string& folder);

/// The encoding of `text` (and `text2`) with special tokens, as tokenizer(text) gives it, at
/// any length.  Throws std::invalid_argument for an empty text or one that gives no tokens.
text::Encoding encode_pieces(const text::HfTokenizer& tokenizer, std::string_view text,
                             std::optional<std::string_view> text2 = std::nullopt);

struct EncodedText {
    text::Encoding encoding;
    ModelInput input;
};

/// A text with more tokens than the model has positions.  For a single text it also carries
/// the longest start of the text that fits (cut after a whole token), which a front end can
/// offer; empty for a pair.
class TextTooLong : public std::invalid_argument, public CodedError {
  public:
    TextTooLong(ErrorCode code, const std::string& model, std::int64_t token_count,
                std::int64_t positions, std::string fitting)
        : std::invalid_argument((code == ErrorCode::ContinuationTooLong
                                     ? "the text and its continuation are "
                                     : "the text is ") +
                                std::to_string(token_count) + " tokens, more than the " +
                                std::to_string(positions) + " positions of " + model),
          CodedError(code, {std::to_string(token_count), std::to_string(positions), model}),
          tokens(token_count),
          max_positions(positions),
          fitting_text(std::move(fitting)) {}
    std::int64_t tokens, max_positions;
    std::string fitting_text;
};

/// The encoding the model sees for `text` (and `text2`, the pair encoding): special tokens
/// added as tokenizer(text) adds them.  Throws std::invalid_argument for an empty text, and
/// TextTooLong for one longer than the model's positions (naming both lengths).
EncodedText encode_text(const OpenedModel& m, std::string_view text,
                        std::optional<std::string_view> text2 = std::nullopt);

/// `e`, the encoding of `text` (a single text), continued by `ids`: a causal model's new
/// tokens, as it chose them (decoding and tokenizing again could split them otherwise).  Each
/// gets its vocabulary string, the text it adds (the continuation decoded as a whole, as
/// Hugging Face's decoders join it, cut where each token ends: a piece of a character shows
/// it as "猫[1/2]"), offsets into the returned text, `text` followed by that continuation,
/// and special set for the tokenizer's special tokens.  Throws std::invalid_argument for an
/// id outside the vocabulary and TextTooLong past the model's positions.
std::string continue_encoding(const OpenedModel& m, EncodedText& e, std::string_view text,
                              const std::vector<std::int64_t>& ids);

/// The one token `text` names, as a target or a distractor of patching: a text that
/// tokenizes (without special tokens) to exactly one token, else a vocabulary string
/// ("Ġcat", "##ing").  Throws UsageError naming `what` ("--target") and the text's pieces.
std::int64_t single_token_id(const text::HfTokenizer& tokenizer, const std::string& text,
                             const std::string& what);

/// Activation patching as the command line spells it (`attnviz patch`, `attnviz export
/// --view patch`): the two texts, the two tokens, the metric's position from 1 (negative:
/// from the end).
struct PatchTexts {
    std::string clean, corrupt, target, distractor;
    std::int64_t position = -1;
};

/// The request for `texts` (every head, one thread): the texts encoded as the model sees
/// them, the tokens single_token_id's.  Throws DataError for a model without a language-model
/// head; UsageError naming the option (--clean, --corrupt, --target, --distractor,
/// --position) for texts of different lengths, a token that is not one, or a position
/// outside the text; TextTooLong for a text past the model's positions.
PatchRequest patch_request(const OpenedModel& m, const PatchTexts& texts);

/// `attnviz inspect`: one JSON object with the architecture, sizes, dtype, parameter count,
/// tokenizer kind and special tokens.
std::string inspect_json(const OpenedModel& m);

/// `attnviz inspect` on a tokenizer-only folder: {"kind": "tokenizer", "weights": false, ...}.
std::string inspect_json(const OpenedTokenizer& t);

/// `attnviz tokenize --model`: {"ids", "tokens", "text", "offsets", "special", "type_ids"}.
std::string encoding_json(const text::Encoding& e);

/// `attnviz attend --out-tokens`: the tokens file `attnviz view --attentions --tokens` reads
/// (engine/io/attention_arrays.h), for the maps' tokens [begin, begin + count): encoding_json's
/// lists, and "input", the text the offsets count in, when there is one text (a pair's
/// offsets count in two texts), so that the window can group the pieces into words.
/// std::invalid_argument for a range outside the encoding.
std::string attention_tokens_json(const text::Encoding& e, std::int64_t begin, std::int64_t count,
                                  std::optional<std::string_view> input);

}  // namespace attnviz::models
