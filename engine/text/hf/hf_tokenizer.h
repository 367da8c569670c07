// Hugging Face tokenizers, id for id: the ids `tokenizer(text)` gives in Python (transformers'
// fast tokenizers, i.e. the Rust `tokenizers` library) for the model folders AttnViz opens.
//
// A folder is read from tokenizer.json when it has one; else from vocab.txt (BertTokenizer:
// BERT's basic tokenizer + WordPiece); else from vocab.json + merges.txt (GPT2Tokenizer:
// byte-level BPE).  The choice follows the files, never config.json's model_type (a GPT-2
// checkpoint may ship a BERT vocab.txt).  tokenizer.json is read as `tokenizers` reads it:
// normalizer -> added tokens -> pre-tokenizer -> model -> post-processor, with the offsets of
// every token tracked back through normalisation to the text typed (HF's NormalizedString).
// Which types of each stage are supported is listed in engine/text/hf/README.md; any other
// type is a DataError naming it, so a tokenizer we cannot reproduce exactly is never used.
//
// Errors: DataError naming the file and the problem (unreadable, not JSON, unknown type,
// empty vocabulary, merges naming unknown tokens, ids out of range, no tokenizer files).
// An HfTokenizer is immutable once built; encode() may run from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::text {

/// What tokenizer(text) returns, one entry per token in every vector.
struct Encoding {
    std::vector<std::int64_t> ids;
    /// Vocabulary strings ("Ġcat", "##ing", "[CLS]", "<0xE7>"); an added token's content.
    std::vector<std::string> tokens;
    /// What a person reads in a heatmap label: the input substring the offsets cover (" cat"
    /// for "Ġcat", "ing" for "##ing", the original case of a lowercased word); a special
    /// token's string; a piece of one character's UTF-8 bytes shows the character and which
    /// piece it is ("猫[1/2]", "猫[2/2]"), never mojibake.
    std::vector<std::string> text;
    /// [begin, end) in Unicode code points of the text the token came from (Python's
    /// offset_mapping); (0, 0) for special tokens the post-processor added.
    std::vector<std::pair<std::int64_t, std::int64_t>> offsets;
    /// 1 for special tokens added by the post-processor and for special added tokens found
    /// in the text ("<|endoftext|>" typed in), else 0.
    std::vector<std::uint8_t> special;
    /// token_type_ids (BERT pairs: 0 for the first text, 1 for the second).
    std::vector<std::int64_t> type_ids;
    /// sequence_ids(): 0 = first text, 1 = second text, -1 = a special token of the template.
    std::vector<std::int32_t> sequence;

    std::size_t size() const { return ids.size(); }
};

/// A model's vocabulary and merges given as lists (HfTokenizer::from_tokenizer_json): token i
/// has id i; merges are "a b" in rank order (none for WordPiece and WordLevel).  Views: the
/// strings are copied while the tokenizer is built.
struct ModelLists {
    std::span<const std::string_view> vocab;
    std::span<const std::string_view> merges;
};

class HfTokenizer {
  public:
    /// Reads a model folder (see the file comment).  Special tokens of vocab.txt and
    /// vocab.json folders come from tokenizer_config.json / special_tokens_map.json, with
    /// BertTokenizer's and GPT2Tokenizer's defaults.
    static HfTokenizer from_folder(const std::string& folder);
    /// From the text of a tokenizer.json; `name` is used in messages (usually the path).
    static HfTokenizer from_tokenizer_json(std::string_view json, const std::string& name);
    /// The same with the model's vocabulary (token i has id i) and, for a BPE, its merges ("a b",
    /// in rank order) given as lists instead of inside the JSON's "model", which then has none:
    /// a GGUF file's 150,000 tokens are read from its metadata without a JSON round trip.
    static HfTokenizer from_tokenizer_json(std::string_view json, const std::string& name,
                                           const ModelLists& lists);

    HfTokenizer(HfTokenizer&&) noexcept;
    HfTokenizer& operator=(HfTokenizer&&) noexcept;
    ~HfTokenizer();

    /// As tokenizer(text) / tokenizer(text, pair) in Python: special tokens added unless
    /// add_special_tokens is false.  Invalid UTF-8 becomes U+FFFD first (as Python's
    /// bytes.decode(errors="replace") would hold it); offsets count code points of that text.
    Encoding encode(std::string_view text, std::optional<std::string_view> pair = std::nullopt,
                    bool add_special_tokens = true) const;

    /// "WordPiece (vocab.txt)", "BPE, byte-level (tokenizer.json)", ...
    std::string kind() const;
    /// The largest id + 1, added tokens included (the rows an embedding needs at least).
    std::int64_t vocab_size() const;
    /// Every special token, added tokens and the post-processor's, ordered by id.
    std::vector<std::pair<std::string, std::int64_t>> special_tokens() const;
    std::optional<std::int64_t> token_to_id(std::string_view token) const;
    /// "" if no token has this id.
    std::string id_to_token(std::int64_t id) const;
    /// The token a single text starts with when the format says so (the template's first
    /// special token: [CLS], <s>), else tokenizer_config.json's bos_token; nullopt if neither.
    std::optional<std::int64_t> bos_id() const;
    /// The id the model gives a piece it does not know (WordPiece's [UNK], a BPE's or a
    /// WordLevel's unk_token); nullopt when it has none (byte-level BPE knows every byte).
    std::optional<std::int64_t> unk_id() const;
    /// The text of `ids` (generated tokens), as Hugging Face's decoders join them: byte-level
    /// tokens turned back into bytes, byte-fallback "<0xNN>" into its byte, "▁" into a space,
    /// WordPiece's "##" pieces glued to the word before; special tokens kept.  Bytes that do
    /// not form UTF-8 become U+FFFD.  An id the vocabulary lacks becomes "<id N>".
    std::string decode(const std::vector<std::int64_t>& ids) const;
    /// tokenizer_config.json's model_max_length, nullopt when it is absent or says "no limit"
    /// (transformers' 1e30).  Hugging Face only warns past it; so does `attnviz tokenize`.
    std::optional<std::int64_t> model_max_length() const;
    /// Special tokens the post-processor adds to one text / a pair (2 and 3 for BERT).
    std::int64_t num_special_tokens_to_add(bool pair) const;

    struct Impl;

  private:
    explicit HfTokenizer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnviz::text
