// The stages of a Hugging Face tokenizer (normalizers, pre-tokenizers, models,
// post-processors), one class per tokenizer.json "type", each reproducing the Rust code of
// huggingface/tokenizers named in its comment.  Internal to engine/text/hf.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/text/hf/normalized_string.h"
#include "engine/text/hf/regex.h"

namespace attnviz::text::hf {

// ---- normalizers (tokenizers/src/normalizers) -------------------------------------------

class Normalizer {
  public:
    virtual ~Normalizer() = default;
    virtual void normalize(NormalizedString& s) const = 0;
};

struct UnicodeNormalizer : Normalizer {  // NFC, NFD, NFKC, NFKD
    bool compose = false, compatibility = false;
    void normalize(NormalizedString& s) const override;
};
struct LowercaseNormalizer : Normalizer {
    void normalize(NormalizedString& s) const override { s.lowercase(); }
};
struct StripAccentsNormalizer : Normalizer {
    void normalize(NormalizedString& s) const override;
};
struct StripNormalizer : Normalizer {
    bool left = true, right = true;
    void normalize(NormalizedString& s) const override;
};
struct BertNormalizer : Normalizer {
    bool clean_text = true, handle_chinese_chars = true, lowercase = true;
    std::optional<bool> strip_accents;  ///< null: follow lowercase
    void normalize(NormalizedString& s) const override;
};
struct PrependNormalizer : Normalizer {
    std::string prepend;
    void normalize(NormalizedString& s) const override {
        if (!s.empty()) s.prepend(prepend);
    }
};
struct ReplaceNormalizer : Normalizer {
    Regex pattern;
    std::string content;
    void normalize(NormalizedString& s) const override;
};
struct NmtNormalizer : Normalizer {
    void normalize(NormalizedString& s) const override;
};
struct SequenceNormalizer : Normalizer {
    std::vector<std::unique_ptr<Normalizer>> normalizers;
    void normalize(NormalizedString& s) const override {
        for (const auto& n : normalizers)
            n->normalize(s);
    }
};

// ---- pre-tokenizers (tokenizers/src/pre_tokenizers) -------------------------------------

class PreTokenizer {
  public:
    virtual ~PreTokenizer() = default;
    virtual void pre_tokenize(PreTokenizedString& p) const = 0;
    /// True if the tokens it leads to are byte-level strings (Ġ for a space byte).
    virtual bool byte_level() const { return false; }
};

struct BertPreTokenizer : PreTokenizer {
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct WhitespacePreTokenizer : PreTokenizer {  // \w+|[^\w\s]+
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct WhitespaceSplitPreTokenizer : PreTokenizer {
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct PunctuationPreTokenizer : PreTokenizer {
    SplitBehavior behavior = SplitBehavior::Isolated;
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct DigitsPreTokenizer : PreTokenizer {
    bool individual_digits = false;
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct CharDelimiterPreTokenizer : PreTokenizer {
    char32_t delimiter = ' ';
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct SplitPreTokenizer : PreTokenizer {
    Regex pattern;
    SplitBehavior behavior = SplitBehavior::Isolated;
    bool invert = false;
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct ByteLevelPreTokenizer : PreTokenizer {
    bool add_prefix_space = true, use_regex = true;
    void pre_tokenize(PreTokenizedString& p) const override;
    bool byte_level() const override { return true; }
};
struct MetaspacePreTokenizer : PreTokenizer {
    enum class Prepend { Always, First, Never };
    char32_t replacement = 0x2581;
    Prepend prepend_scheme = Prepend::Always;
    bool split = true;
    void pre_tokenize(PreTokenizedString& p) const override;
};
struct SequencePreTokenizer : PreTokenizer {
    std::vector<std::unique_ptr<PreTokenizer>> pre_tokenizers;
    void pre_tokenize(PreTokenizedString& p) const override {
        for (const auto& t : pre_tokenizers)
            t->pre_tokenize(p);
    }
    bool byte_level() const override {
        for (const auto& t : pre_tokenizers)
            if (t->byte_level()) return true;
        return false;
    }
};

/// GPT-2's byte -> printable character table (bytes_char in byte_level.rs).
const std::array<char32_t, 256>& byte_to_char();
/// The inverse: the byte a byte-level character stands for, or -1.
int char_to_byte(char32_t c);

// ---- models (tokenizers/src/models) -----------------------------------------------------

/// A fast hash of a short byte string (tokens are a few bytes long).
std::uint64_t hash_bytes(std::string_view s);

/// A model's vocabulary: token strings in one arena, looked up both ways.  Open addressing
/// with linear probing: the 151,643 tokens and 3 lookups per merge of Qwen's tokenizer.json
/// are a large part of opening it, and node-based std::unordered_map cost twice as much.
class Vocab {
  public:
    /// Adds a token; false if the string is already there (then its id becomes `id` if
    /// `replace`, as a Python dict built line by line keeps the last one).
    bool add(std::string_view token, std::uint32_t id, bool replace = false) {
        return add(token, id, replace, hash_bytes(token));
    }
    /// add() with the token's hash_bytes() already known.
    bool add(std::string_view token, std::uint32_t id, bool replace, std::uint64_t h);
    /// Call once after the last add(): builds the id -> token table.
    void finish();
    std::optional<std::uint32_t> find(std::string_view token) const {
        return find(token, hash_bytes(token));
    }
    /// find() with the token's hash_bytes() already known.
    std::optional<std::uint32_t> find(std::string_view token, std::uint64_t h) const {
        if (slots_.empty()) return std::nullopt;
        for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
            const std::uint32_t e = slots_[i];
            if (e == 0) return std::nullopt;
            const Entry& entry = entries_[e - 1];
            if (entry.hash == h && entry.token == token) return entry.id;
        }
    }
    // Lookups in bulk (a tokenizer's 150,000 merges) wait on memory, not on work: a batch
    // first asks for each token's slot, then for the entry the slot names, then looks up.
    void prefetch_slot(std::uint64_t h) const {
        if (!slots_.empty()) prefetch(&slots_[h & mask_]);
    }
    void prefetch_entry(std::uint64_t h) const {
        if (slots_.empty()) return;
        if (const std::uint32_t e = slots_[h & mask_]) prefetch(&entries_[e - 1]);
    }
    std::string_view token(std::uint32_t id) const;
    bool has_id(std::uint32_t id) const;
    std::size_t size() const { return entries_.size(); }
    /// The largest id + 1 (0 when empty).
    std::uint64_t id_limit() const { return id_limit_; }
    void reserve(std::size_t n, std::size_t bytes);

  private:
    struct Entry {
        std::string_view token;
        std::uint64_t hash;
        std::uint32_t id;
    };
    static void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(p);
#else
        (void)p;
#endif
    }
    std::vector<std::unique_ptr<std::string>> arenas_;  // stable storage for string_views
    std::vector<Entry> entries_;
    std::vector<std::uint32_t> slots_;  // entry index + 1, 0 = free
    std::size_t mask_ = 0;
    std::vector<std::string_view> dense_;  // by id when ids are compact (null data: no token)
    std::unordered_map<std::uint32_t, std::string_view> sparse_;  // otherwise
    std::uint64_t id_limit_ = 0;
    std::string_view store(std::string_view s);
    void grow(std::size_t capacity);
};

/// BPE merges: (left id, right id) -> (rank, merged id), open addressing on the id pair.
class MergeMap {
  public:
    void reserve(std::size_t n);
    /// Inserts or, if `overwrite`, replaces; returns false if the pair was already there.
    bool insert(std::uint32_t a, std::uint32_t b, std::uint32_t rank, std::uint32_t merged,
                bool overwrite);
    /// The (rank, merged id) of a pair, if it is a merge.
    bool find(std::uint32_t a, std::uint32_t b, std::uint32_t& rank, std::uint32_t& merged) const {
        if (slots_.empty()) return false;
        const std::uint64_t key = (std::uint64_t(a) << 32) | b;
        for (std::size_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.rank == kEmpty) return false;
            if (s.key == key) {
                rank = s.rank;
                merged = s.merged;
                return true;
            }
        }
    }
    std::size_t size() const { return size_; }

  private:
    // 16 bytes a slot; a rank of 2^32 - 1 marks a free one (no file has 4 billion merges).
    static constexpr std::uint32_t kEmpty = UINT32_MAX;
    struct Slot {
        std::uint64_t key = 0;
        std::uint32_t rank = kEmpty, merged = 0;
    };
    static std::uint64_t mix(std::uint64_t k) {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdULL;
        k ^= k >> 33;
        return k;
    }
    void grow(std::size_t capacity);
    std::vector<Slot> slots_;
    std::size_t mask_ = 0, size_ = 0;
};

/// A token as a model gives it: id and byte offsets inside the word it was given.
struct ModelToken {
    std::uint32_t id;
    std::size_t begin, end;
};

class Model {
  public:
    virtual ~Model() = default;
    /// Appends the tokens of one pre-tokenized word; throws DataError when the model cannot
    /// (a missing unk token, as Rust's MissingUnkToken).
    virtual void tokenize(std::string_view word, std::vector<ModelToken>& out) const = 0;
    const Vocab& vocab() const { return vocab_; }
    Vocab& vocab() { return vocab_; }
    std::string name;  ///< for messages: the file the model came from

  protected:
    Vocab vocab_;
};

struct WordPieceModel : Model {
    std::string unk_token = "[UNK]";
    std::string continuing_subword_prefix = "##";
    std::size_t max_input_chars_per_word = 100;
    void tokenize(std::string_view word, std::vector<ModelToken>& out) const override;
};

struct WordLevelModel : Model {
    std::string unk_token = "<unk>";
    void tokenize(std::string_view word, std::vector<ModelToken>& out) const override;
};

struct BpeModel : Model {
    std::optional<std::string> unk_token, continuing_subword_prefix, end_of_word_suffix;
    bool fuse_unk = false, byte_fallback = false, ignore_merges = false;
    MergeMap merges;
    /// id of "<0xXX>" for every byte, when byte_fallback (-1 if missing).
    std::array<std::int64_t, 256> byte_ids{};

    /// Builds the byte-fallback table; call after the vocabulary is complete.
    void finish();
    void tokenize(std::string_view word, std::vector<ModelToken>& out) const override;

  private:
    struct Piece {
        std::uint32_t id, len;
    };
    void merge_word(std::string_view word, std::vector<Piece>& out) const;
    // The words already merged, as tokenizers' BPE cache (10,000 words under 256 bytes).
    mutable std::mutex cache_mutex_;
    mutable std::unordered_map<std::string, std::vector<Piece>> cache_;
};

// ---- post-processors (tokenizers/src/processors) ----------------------------------------

/// One token of an Encoding while post-processing.
struct EncToken {
    std::uint32_t id;
    std::string value;  ///< Token::value, which offsets trimming looks at
    std::int64_t begin, end;
    std::uint8_t special = 0;
    std::uint32_t type_id = 0;
    std::int32_t sequence = 0;  ///< -1 for tokens of the template
    bool added = false;         ///< matched by the added vocabulary
};
using EncTokens = std::vector<EncToken>;

class PostProcessor {
  public:
    virtual ~PostProcessor() = default;
    virtual std::size_t added_tokens(bool pair) const = 0;
    virtual void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const = 0;
    /// The special tokens it can add, with their ids.
    virtual void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>& out) const = 0;
    /// The token a single sequence starts with, if it adds one.
    virtual std::optional<std::uint32_t> first_special() const { return std::nullopt; }
};

struct BertProcessing : PostProcessor {
    std::pair<std::string, std::uint32_t> sep{"[SEP]", 102}, cls{"[CLS]", 101};
    std::size_t added_tokens(bool pair) const override { return pair ? 3 : 2; }
    void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const override;
    void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>& out) const override {
        out.push_back(cls);
        out.push_back(sep);
    }
    std::optional<std::uint32_t> first_special() const override { return cls.second; }
};

struct RobertaProcessing : PostProcessor {
    std::pair<std::string, std::uint32_t> sep{"</s>", 2}, cls{"<s>", 0};
    bool trim_offsets = true, add_prefix_space = true;
    std::size_t added_tokens(bool pair) const override { return pair ? 4 : 2; }
    void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const override;
    void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>& out) const override {
        out.push_back(cls);
        out.push_back(sep);
    }
    std::optional<std::uint32_t> first_special() const override { return cls.second; }
};

struct ByteLevelProcessing : PostProcessor {
    bool trim_offsets = true, add_prefix_space = true;
    std::size_t added_tokens(bool) const override { return 0; }
    void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const override;
    void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>&) const override {}
};

struct TemplateProcessing : PostProcessor {
    struct Piece {
        bool is_sequence;   ///< $A / $B, else a special token
        int sequence = 0;   ///< 0 = A, 1 = B
        std::string token;  ///< the special token's key in special_tokens
        std::uint32_t type_id = 0;
    };
    struct Special {
        std::vector<std::uint32_t> ids;
        std::vector<std::string> tokens;
    };
    std::vector<Piece> single, pair;
    std::unordered_map<std::string, Special> specials;
    std::size_t added_tokens(bool pair) const override;
    void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const override;
    void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>& out) const override;
    std::optional<std::uint32_t> first_special() const override;
};

struct SequenceProcessing : PostProcessor {
    std::vector<std::unique_ptr<PostProcessor>> processors;
    std::size_t added_tokens(bool pair) const override {
        std::size_t n = 0;
        for (const auto& p : processors)
            n += p->added_tokens(pair);
        return n;
    }
    void process(std::vector<EncTokens>& encodings, bool add_special_tokens) const override {
        for (const auto& p : processors)
            p->process(encodings, add_special_tokens);
    }
    void special_tokens(std::vector<std::pair<std::string, std::uint32_t>>& out) const override {
        for (const auto& p : processors)
            p->special_tokens(out);
    }
    std::optional<std::uint32_t> first_special() const override {
        for (const auto& p : processors)
            if (auto id = p->first_special()) return id;
        return std::nullopt;
    }
};

/// ByteLevel's process_offsets: trims leading/trailing spaces (Ġ) off the offsets.
void trim_byte_level_offsets(EncTokens& encoding, bool add_prefix_space);

// ---- added vocabulary (tokenizers/src/tokenizer/added_vocabulary.rs) ---------------------

struct AddedToken {
    std::string content;
    bool single_word = false, lstrip = false, rstrip = false, normalized = true, special = false;
    bool operator==(const AddedToken&) const = default;
};

class AddedVocabulary {
  public:
    /// add_tokens: each token gets the model's id for its content, else the next free id
    /// (the ids written in the file are not used, as in tokenizers).  Throws DataError
    /// (naming `file`) if two tokens cannot be told apart.
    void add_tokens(const std::vector<AddedToken>& tokens, const Model& model,
                    const Normalizer* normalizer, const std::string& file);
    /// extract_and_normalize: splits off the added tokens (non-normalized ones on the raw
    /// text, the others after normalising the rest) and normalises what remains.
    PreTokenizedString extract_and_normalize(const Normalizer* normalizer,
                                             std::string_view text) const;

    std::optional<std::uint32_t> find(std::string_view content) const;
    const AddedToken* token(std::uint32_t id) const;
    const std::unordered_map<std::uint32_t, AddedToken>& tokens() const { return by_id_; }
    bool empty() const { return by_id_.empty(); }

  private:
    struct Trie {
        std::vector<std::int64_t> value{-1};                     // per node: id, or -1
        std::unordered_map<std::uint64_t, std::uint32_t> edges;  // node << 8 | byte -> node
        std::array<bool, 256> first{};
        bool empty = true;
        void insert(std::string_view s, std::uint32_t id);
    };
    struct Found {
        std::optional<std::uint32_t> id;
        std::size_t begin, end;
    };
    void refresh(const std::string& file);
    std::vector<Found> find_matches(std::string_view sentence, const Trie& trie) const;
    void split_with_indices(NormalizedString&& s, const Trie& trie, std::vector<Split>& out) const;

    std::unordered_map<std::string, std::uint32_t> by_content_;
    std::unordered_map<std::uint32_t, AddedToken> by_id_;
    std::unordered_map<std::uint32_t, std::string> normalized_cache_;
    Trie split_trie_, split_normalized_trie_;
};

}  // namespace attnviz::text::hf
