// Hugging Face tokenizers (engine/text/hf/hf_tokenizer.h), id for id.
//
// * Real vocabularies (tests/data/tokenizers/{bert-uncased,gpt2,qwen2}, see its README.md):
//   every string of llama.cpp's reference lists must give exactly the ids Hugging Face's
//   AutoTokenizer gave (add_special_tokens=False), plus hand-checked cases with offsets,
//   display text, token types and special tokens.
// * Formats without a real vocabulary here (Llama 2 / TinyLlama SentencePiece-style BPE,
//   Llama 3 byte-level BPE with ignore_merges, and an assortment of other stages): tiny
//   tokenizer.json files written by tests/data/tokenizers/make_tiny.py, whose expected ids
//   are derived by hand in the comments (make_tiny.py --check runs the BPE merge loop on them).
// * Bad files and folders: DataError naming the file and the problem.

#include <QTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/text/hf/hf_tokenizer.h"
#include "test_support.h"

using namespace attnviz;
using text::Encoding;
using text::HfTokenizer;

namespace {

std::string folder(const std::string& name) {
    return test::data_dir() + "/tokenizers/" + name;
}

/// Each folder is opened once per test run (Qwen's takes a good part of a second in a debug
/// build).
const HfTokenizer& tokenizer(const std::string& name) {
    static std::map<std::string, std::unique_ptr<HfTokenizer>> cache;
    auto& slot = cache[name];
    if (!slot) slot = std::make_unique<HfTokenizer>(HfTokenizer::from_folder(folder(name)));
    return *slot;
}

std::string q(const std::string& s) {
    return io::json::quote(s);
}

/// One expected token: id, vocabulary string, display text and code point offsets.
struct Tok {
    std::int64_t id;
    std::string token;
    std::string text;
    std::int64_t begin, end;
};

/// Compares everything of `e` but types/special/sequence with `want`; the message names the
/// first differing token and both values.
QString mismatch(const Encoding& e, const std::vector<Tok>& want) {
    const std::size_t n = std::min(e.size(), want.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Tok& w = want[i];
        std::string got, expected;
        if (e.ids[i] != w.id) {
            got = std::to_string(e.ids[i]);
            expected = std::to_string(w.id);
        } else if (e.tokens[i] != w.token) {
            got = q(e.tokens[i]);
            expected = q(w.token);
        } else if (e.text[i] != w.text) {
            got = "text " + q(e.text[i]);
            expected = "text " + q(w.text);
        } else if (e.offsets[i] != std::pair{w.begin, w.end}) {
            got = "offsets (" + std::to_string(e.offsets[i].first) + ", " +
                  std::to_string(e.offsets[i].second) + ")";
            expected = "(" + std::to_string(w.begin) + ", " + std::to_string(w.end) + ")";
        } else {
            continue;
        }
        return QString::fromStdString("token " + std::to_string(i) + " (" + q(e.tokens[i]) +
                                      "): got " + got + ", expected " + expected);
    }
    if (e.size() != want.size())
        return QString::fromStdString(
            std::to_string(e.size()) + " tokens, expected " + std::to_string(want.size()) +
            "; first extra: " + (e.size() > n ? q(e.tokens[n]) : q(want[n].token)));
    return {};
}

#define CHECK_TOKENS(encoding, ...)                                              \
    do {                                                                         \
        const QString why = mismatch((encoding), std::vector<Tok>{__VA_ARGS__}); \
        QVERIFY2(why.isEmpty(), qPrintable(why));                                \
    } while (false)

template <typename T>
QString vector_mismatch(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
    if (got == want) return {};
    const std::size_t n = std::min(got.size(), want.size());
    for (std::size_t i = 0; i < n; ++i)
        if (got[i] != want[i])
            return QStringLiteral("%1[%2]: got %3, expected %4")
                .arg(what)
                .arg(i)
                .arg(static_cast<long long>(got[i]))
                .arg(static_cast<long long>(want[i]));
    return QStringLiteral("%1: %2 values, expected %3").arg(what).arg(got.size()).arg(want.size());
}

#define CHECK_VECTOR(what, got, ...)                                                \
    do {                                                                            \
        const QString why = vector_mismatch(what, got, decltype(got){__VA_ARGS__}); \
        QVERIFY2(why.isEmpty(), qPrintable(why));                                   \
    } while (false)

std::string read(const std::string& path) {
    return io::read_file(path);
}

void write(const std::string& path, const std::string& bytes) {
    io::write_file_atomically(path, bytes);
}

/// A DataError's message, or "" if `f` did not throw one.
template <typename F>
std::string data_error(F&& f) {
    try {
        f();
    } catch (const DataError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

class TestHfTokenizer : public QObject {
    Q_OBJECT

  private slots:
    void reference_ids_data();
    void reference_ids();

    void bert_offsets_case_and_accents();
    void bert_pair_type_ids();
    void bert_special_tokens_typed_in_text();
    void bert_word_over_100_characters();
    void bert_clean_text_removes_control_characters();
    void gpt2_words_numbers_contractions();
    void gpt2_whitespace_and_newlines();
    void gpt2_special_token_typed_in_text();
    void partial_character_display();
    void invalid_utf8_becomes_replacement_character();
    void ill_formed_bytes_across_tokens_display();
    void qwen_chat_tokens_and_digits();
    void qwen_whitespace_runs();
    void emoji();

    void llama2_sentencepiece_bpe();
    void llama2_byte_fallback();
    void llama2_pair_and_typed_bos();
    void llama3_ignore_merges();
    void wordlevel_normalizers_and_pre_tokenizers();
    void roberta_lstrip_single_word_and_trimmed_offsets();
    void metaspace_prepend_first_and_fused_unk();

    void transformers_class_adjustments();
    void shipped_tokenizer_configs_with_no_length_limit();
    void api();
    void long_text_and_threads();

    void bad_tokenizer_json_data();
    void bad_tokenizer_json();
    void bad_folders();
};

// ---- reference lists ------------------------------------------------------------------------

void TestHfTokenizer::reference_ids_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    for (const char* name : {"bert-uncased", "gpt2", "qwen2"}) {
        const std::string inp = read(folder(name) + "/reference.inp");
        const std::size_t strings = [&] {
            std::size_t n = 0;
            for (std::size_t p = 0;
                 (p = inp.find("\n__ggml_vocab_test__\n", p)) != std::string::npos; ++p)
                ++n;
            return n;
        }();
        QVERIFY2(strings >= 40, name);
        for (std::size_t i = 0; i < strings; ++i)
            QTest::newRow((std::string(name) + "/" + std::to_string(i)).c_str())
                << QString(name) << static_cast<int>(i);
    }
}

void TestHfTokenizer::reference_ids() {
    QFETCH(QString, name);
    QFETCH(int, index);
    const std::string dir = folder(name.toStdString());
    // reference.inp: each string followed by "\n__ggml_vocab_test__\n"; reference.out: one
    // line of ids per string (no special tokens).
    const std::string inp = read(dir + "/reference.inp");
    const std::string sep = "\n__ggml_vocab_test__\n";
    std::string text;
    std::size_t p = 0;
    for (int i = 0; i <= index; ++i) {
        const std::size_t e = inp.find(sep, p);
        QVERIFY(e != std::string::npos);
        text = inp.substr(p, e - p);
        p = e + sep.size();
    }
    std::istringstream out(read(dir + "/reference.out"));
    std::string line;
    for (int i = 0; i <= index; ++i)
        QVERIFY(std::getline(out, line));
    std::vector<std::int64_t> want;
    std::istringstream ids(line);
    for (std::int64_t id; ids >> id;)
        want.push_back(id);

    const HfTokenizer& tok = tokenizer(name.toStdString());
    const Encoding e = tok.encode(text, std::nullopt, false);
    if (e.ids == want) return;
    std::size_t i = 0;
    while (i < e.ids.size() && i < want.size() && e.ids[i] == want[i])
        ++i;
    const auto describe = [&](const std::vector<std::int64_t>& v) {
        return i < v.size() ? std::to_string(v[i]) + " " + q(tok.id_to_token(v[i])) : "(end)";
    };
    QFAIL(qPrintable(QString::fromStdString(
        "string " + q(text) + ": first difference at id " + std::to_string(i) + ": got " +
        describe(e.ids) + ", expected " + describe(want) + " (" + std::to_string(e.ids.size()) +
        " ids, expected " + std::to_string(want.size()) + ")")));
}

// ---- BERT (vocab.txt, do_lower_case) --------------------------------------------------------

void TestHfTokenizer::bert_offsets_case_and_accents() {
    const HfTokenizer& tok = tokenizer("bert-uncased");
    // BertNormalizer lowercases and strips accents (NFD, then Mn removed): "Café" -> "cafe",
    // whose display keeps the original.  "lait" is not in the vocabulary: WordPiece takes the
    // longest prefix, "lai", then "##t".  Each CJK ideograph is its own word; 爱 and 你 are
    // not in bert-base-uncased's vocabulary.  "don't": the apostrophe is punctuation.
    const Encoding e = tok.encode("Café au lait, 我爱你! don't");
    CHECK_TOKENS(e, {101, "[CLS]", "[CLS]", 0, 0}, {7668, "cafe", "Café", 0, 4},
                 {8740, "au", "au", 5, 7}, {21110, "lai", "lai", 8, 11}, {2102, "##t", "t", 11, 12},
                 {1010, ",", ",", 12, 13}, {1855, "我", "我", 14, 15}, {100, "[UNK]", "爱", 15, 16},
                 {100, "[UNK]", "你", 16, 17}, {999, "!", "!", 17, 18},
                 {2123, "don", "don", 19, 22}, {1005, "'", "'", 22, 23}, {1056, "t", "t", 23, 24},
                 {102, "[SEP]", "[SEP]", 0, 0});
    CHECK_VECTOR("special", e.special, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    CHECK_VECTOR("sequence", e.sequence, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1);
}

void TestHfTokenizer::bert_pair_type_ids() {
    const HfTokenizer& tok = tokenizer("bert-uncased");
    // [CLS] A [SEP] B [SEP]: the second text and its [SEP] have token type 1; offsets of the
    // second text count from its own start.
    const Encoding e = tok.encode("Hello world", std::string_view("How are you?"));
    CHECK_TOKENS(e, {101, "[CLS]", "[CLS]", 0, 0}, {7592, "hello", "Hello", 0, 5},
                 {2088, "world", "world", 6, 11}, {102, "[SEP]", "[SEP]", 0, 0},
                 {2129, "how", "How", 0, 3}, {2024, "are", "are", 4, 7},
                 {2017, "you", "you", 8, 11}, {1029, "?", "?", 11, 12},
                 {102, "[SEP]", "[SEP]", 0, 0});
    CHECK_VECTOR("type_ids", e.type_ids, 0, 0, 0, 0, 1, 1, 1, 1, 1);
    CHECK_VECTOR("sequence", e.sequence, -1, 0, 0, -1, 1, 1, 1, 1, -1);
    CHECK_VECTOR("special", e.special, 1, 0, 0, 1, 0, 0, 0, 0, 1);
    // Without special tokens the types still tell the texts apart.
    const Encoding bare = tok.encode("Hello world", std::string_view("How are you?"), false);
    CHECK_VECTOR("ids", bare.ids, 7592, 2088, 2129, 2024, 2017, 1029);
    CHECK_VECTOR("type_ids", bare.type_ids, 0, 0, 1, 1, 1, 1);
}

void TestHfTokenizer::bert_special_tokens_typed_in_text() {
    const HfTokenizer& tok = tokenizer("bert-uncased");
    // Special tokens are matched on the raw text before lowercasing: "[CLS]" and "[MASK]" are
    // found, "[cls]" is ordinary text: "[", "cl" + "##s", "]".
    const Encoding e = tok.encode("[CLS] hi [MASK] [cls]", std::nullopt, false);
    CHECK_TOKENS(e, {101, "[CLS]", "[CLS]", 0, 5}, {7632, "hi", "hi", 6, 8},
                 {103, "[MASK]", "[MASK]", 9, 15}, {1031, "[", "[", 16, 17},
                 {18856, "cl", "cl", 17, 19}, {2015, "##s", "s", 19, 20}, {1033, "]", "]", 20, 21});
    CHECK_VECTOR("special", e.special, 1, 0, 1, 0, 0, 0, 0);
}

void TestHfTokenizer::bert_word_over_100_characters() {
    const HfTokenizer& tok = tokenizer("bert-uncased");
    // max_input_chars_per_word = 100: a 101-letter word is one [UNK] covering all of it.
    const std::string word(101, 'x');
    const Encoding e = tok.encode(word + " ok", std::nullopt, false);
    CHECK_TOKENS(e, {100, "[UNK]", word, 0, 101}, {7929, "ok", "ok", 102, 104});
    // 100 letters are still split into pieces.
    const Encoding fits = tok.encode(std::string(100, 'x'), std::nullopt, false);
    QVERIFY(fits.size() > 1);
    QVERIFY(std::find(fits.ids.begin(), fits.ids.end(), 100) == fits.ids.end());
}

// ---- GPT-2 (vocab.json + merges.txt) --------------------------------------------------------

// tokenizers' BertNormalizer (bert.rs do_clean_text) first removes U+0000, U+FFFD and every
// control character (category C*, except \t \n \r, which count as whitespace), then maps
// whitespace to ' '.  So \v and \f, both control and whitespace, vanish and join their
// neighbours: "vertical\vtab" is one word, as llama.cpp tokenizes it too.
void TestHfTokenizer::bert_clean_text_removes_control_characters() {
    const HfTokenizer& tok = tokenizer("bert-uncased");
    QCOMPARE(tok.encode("vertical\vtab form\ffeed").ids, tok.encode("verticaltab formfeed").ids);
    // bert-base-uncased has no "##tab" or "##feed": the longest pieces.
    CHECK_TOKENS(tok.encode("vertical\vtab form\ffeed"), {101, "[CLS]", "[CLS]", 0, 0},
                 {7471, "vertical", "vertical", 0, 8}, {2696, "##ta", "ta", 9, 11},
                 {2497, "##b", "b", 11, 12}, {2433, "form", "form", 13, 17},
                 {7959, "##fe", "fe", 18, 20}, {2098, "##ed", "ed", 20, 22},
                 {102, "[SEP]", "[SEP]", 0, 0});
    const std::vector<std::int64_t> joined = tok.encode("ab").ids;  // [CLS] ab [SEP]
    const std::vector<std::int64_t> split = tok.encode("a b").ids;  // [CLS] a b [SEP]
    std::vector<char32_t> controls;
    for (char32_t c = 0; c < 0x20; ++c)
        controls.push_back(c);
    for (char32_t c = 0x7F; c <= 0x9F; ++c)
        controls.push_back(c);
    controls.push_back(0xFFFD);
    for (const char32_t c : controls) {
        std::string text = "a";
        if (c < 0x80) {
            text += static_cast<char>(c);
        } else if (c < 0x800) {
            text += static_cast<char>(0xC0 | (c >> 6));
            text += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            text += static_cast<char>(0xE0 | (c >> 12));
            text += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            text += static_cast<char>(0x80 | (c & 0x3F));
        }
        text += "b";
        const bool whitespace = c == '\t' || c == '\n' || c == '\r';
        const Encoding e = tok.encode(text);
        QVERIFY2(e.ids == (whitespace ? split : joined),
                 qPrintable(QStringLiteral("U+%1 gives %2 tokens")
                                .arg(static_cast<unsigned>(c), 4, 16, QLatin1Char('0'))
                                .arg(e.ids.size())));
        // The display text and offsets still point into the text as typed.
        QCOMPARE(e.offsets.back().first, 0);  // [SEP]
        QCOMPARE(e.offsets[1].first, 0);
        QCOMPARE(e.offsets[whitespace ? 2 : 1].second, 3);
    }
}

void TestHfTokenizer::gpt2_words_numbers_contractions() {
    const HfTokenizer& tok = tokenizer("gpt2");
    // GPT-2's pattern: 's|'t|... | ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+.  The
    // space goes with the word after it (Ġ), shown as a space; "'t" is its own piece; " 12345"
    // is one piece that BPE cuts into "Ġ123" + "45".  GPT-2 adds no special tokens.
    const Encoding e = tok.encode("Hello world, don't 12345");
    CHECK_TOKENS(e, {15496, "Hello", "Hello", 0, 5}, {995, "Ġworld", " world", 5, 11},
                 {11, ",", ",", 11, 12}, {836, "Ġdon", " don", 12, 16}, {470, "'t", "'t", 16, 18},
                 {17031, "Ġ123", " 123", 18, 22}, {2231, "45", "45", 22, 24});
    CHECK_VECTOR("special", e.special, 0, 0, 0, 0, 0, 0, 0);
    CHECK_VECTOR("sequence", e.sequence, 0, 0, 0, 0, 0, 0, 0);
}

void TestHfTokenizer::gpt2_whitespace_and_newlines() {
    const HfTokenizer& tok = tokenizer("gpt2");
    // "x  \n y": \s+(?!\S) takes the whitespace run but the space before "y" ("  \n"), and
    // " y" is a word.  GPT-2 has no merge "Ġ Ġ" (nor "Ġ Ċ"): the run stays three tokens.
    const Encoding e = tok.encode("x  \n y");
    CHECK_TOKENS(e, {87, "x", "x", 0, 1}, {220, "Ġ", " ", 1, 2}, {220, "Ġ", " ", 2, 3},
                 {198, "Ċ", "\n", 3, 4}, {331, "Ġy", " y", 4, 6});
}

void TestHfTokenizer::gpt2_special_token_typed_in_text() {
    const HfTokenizer& tok = tokenizer("gpt2");
    // <|endoftext|> is GPT2Tokenizer's bos/eos/unk: typed in, it is found as one special token.
    const Encoding e = tok.encode("a<|endoftext|>b");
    CHECK_TOKENS(e, {64, "a", "a", 0, 1}, {50256, "<|endoftext|>", "<|endoftext|>", 1, 14},
                 {65, "b", "b", 14, 15});
    CHECK_VECTOR("special", e.special, 0, 1, 0);
}

void TestHfTokenizer::partial_character_display() {
    // 你 is E4 BD A0: GPT-2 has "ä½" (E4 BD) and "ł" (A0) but no token for all three bytes.
    // Both pieces carry the character's offsets; the display says which piece each one is.
    const Encoding e = tokenizer("gpt2").encode("你");
    CHECK_TOKENS(e, {19526, "ä½", "你[1/2]", 0, 1}, {254, "ł", "你[2/2]", 0, 1});
    // 猫 (E7 8C AB) in three byte tokens; the first also holds the space before it.
    const Encoding cat = tokenizer("gpt2").encode("a 猫");
    CHECK_TOKENS(cat, {64, "a", "a", 0, 1}, {13328, "Ġç", " 猫[1/3]", 1, 3},
                 {234, "Į", "猫[2/3]", 2, 3}, {104, "«", "猫[3/3]", 2, 3});
}

void TestHfTokenizer::invalid_utf8_becomes_replacement_character() {
    // "\xFF" is not UTF-8: it becomes U+FFFD (EF BF BD, "ï¿½" byte-level), one code point,
    // so "b" is at offset 2.
    const Encoding e = tokenizer("gpt2").encode(
        "a\xFF"
        "b");
    CHECK_TOKENS(e, {64, "a", "a", 0, 1}, {4210, "ï¿½", "\xEF\xBF\xBD", 1, 2},
                 {65, "b", "b", 2, 3});
    // BERT's clean_text removes U+FFFD altogether: "ab" is one word (11113), whose offsets
    // take in the removed character.
    const Encoding b = tokenizer("bert-uncased")
                           .encode(
                               "a\xC3"
                               "b",
                               std::nullopt, false);
    CHECK_TOKENS(b, {11113, "ab",
                     "a\xEF\xBF\xBD"
                     "b",
                     0, 3});
}

void TestHfTokenizer::ill_formed_bytes_across_tokens_display() {
    // Byte-level tokens whose bytes, put together, are not UTF-8: a Split after ByteLevel
    // removes the byte-level characters of 80 80 C2 ("ĢĢÂ"), C2 ("Â") and A9 ("©").  The
    // display reads a lead byte and the continuation bytes it announces bit for bit, so ED A0
    // 80 (a surrogate) is one character in three pieces, shown as U+FFFD; a sequence cut
    // short is a whole U+FFFD in each token it touched.
    const HfTokenizer tok = HfTokenizer::from_tokenizer_json(
        R"({"version": "1.0", "added_tokens": [], "normalizer": null, "post_processor": null,
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false},
                {"type": "Split", "pattern": {"Regex": "ĢĢÂ|Â|©"}, "behavior": "Removed",
                 "invert": false}]},
            "model": {"type": "BPE", "merges": [],
                      "vocab": {"í": 0, "ł": 1, "Ģ": 2, "ä": 3, "½": 4, "a": 5}}})",
        "ill-formed/tokenizer.json");
    const std::string fffd = "\xEF\xBF\xBD";
    // U+D000 U+00A0 U+0080: ED 80 80 C2 A0 C2 80, of which ED, A0 and the last 80 are kept.
    const Encoding surrogate = tok.encode("\xED\x80\x80\xC2\xA0\xC2\x80");
    CHECK_TOKENS(surrogate, {0, "í", fffd + "[1/3]", 0, 1}, {1, "ł", fffd + "[2/3]", 1, 2},
                 {2, "Ģ", fffd + "[3/3]", 2, 3});
    // 佩 is E4 BD A9: without A9, E4 BD is cut short before "a".
    const Encoding cut = tok.encode("佩a");
    CHECK_TOKENS(cut, {3, "ä", fffd, 0, 1}, {4, "½", fffd, 0, 1}, {5, "a", "a", 1, 2});
}

// ---- Qwen2 (tokenizer.json: NFC, Split regex, ByteLevel) ------------------------------------

void TestHfTokenizer::qwen_chat_tokens_and_digits() {
    const HfTokenizer& tok = tokenizer("qwen2");
    // The chat markers are special added tokens found in the text; 你好 is one token.
    const Encoding chat = tok.encode("<|im_start|>user\n你好<|im_end|>");
    CHECK_TOKENS(chat, {151644, "<|im_start|>", "<|im_start|>", 0, 12},
                 {872, "user", "user", 12, 16}, {198, "Ċ", "\n", 16, 17},
                 {108386, "ä½łå¥½", "你好", 17, 19}, {151645, "<|im_end|>", "<|im_end|>", 19, 29});
    CHECK_VECTOR("special", chat.special, 1, 0, 0, 0, 1);
    // (?i:'s|'t|'re|'ve|'m|'ll|'d) takes "'M" whatever its case; \p{N} takes one digit at a
    // time; the space before the digits stays alone (\s+ when \s+(?!\S) cannot match).
    const Encoding e = tok.encode("I'M 12345 don't");
    CHECK_TOKENS(e, {40, "I", "I", 0, 1}, {27603, "'M", "'M", 1, 3}, {220, "Ġ", " ", 3, 4},
                 {16, "1", "1", 4, 5}, {17, "2", "2", 5, 6}, {18, "3", "3", 6, 7},
                 {19, "4", "4", 7, 8}, {20, "5", "5", 8, 9}, {1513, "Ġdon", " don", 9, 13},
                 {944, "'t", "'t", 13, 15});
}

void TestHfTokenizer::qwen_whitespace_runs() {
    const HfTokenizer& tok = tokenizer("qwen2");
    // \s*[\r\n]+ takes "  \n \n" as one piece (BPE: "ĠĠĊ" + "ĠĊ"); the trailing spaces are
    // \s+(?!\S) at the end of the text.
    const Encoding e = tok.encode("a  \n \n b   ");
    CHECK_TOKENS(e, {64, "a", "a", 0, 1}, {2303, "ĠĠĊ", "  \n", 1, 4}, {715, "ĠĊ", " \n", 4, 6},
                 {293, "Ġb", " b", 6, 8}, {262, "ĠĠĠ", "   ", 8, 11});
}

void TestHfTokenizer::emoji() {
    // 😀 is one Qwen token with the space before it; in GPT-2 its four bytes are two tokens.
    CHECK_TOKENS(tokenizer("qwen2").encode("hi 😀"), {6023, "hi", "hi", 0, 2},
                 {90316, "ĠðŁĺĢ", " 😀", 2, 4});
    CHECK_TOKENS(tokenizer("gpt2").encode("😀"), {47249, "ðŁĺ", "😀[1/2]", 0, 1},
                 {222, "Ģ", "😀[2/2]", 0, 1});
    // BERT: an emoji is neither space nor punctuation, so "hi😀" is one word; "hi" is in the
    // vocabulary but "##😀" is not, and WordPiece then gives one [UNK] for the whole word.
    CHECK_TOKENS(tokenizer("bert-uncased").encode("hi😀 hi", std::nullopt, false),
                 {100, "[UNK]", "hi😀", 0, 3}, {7632, "hi", "hi", 4, 6});
}

// ---- tiny tokenizers (make_tiny.py) ---------------------------------------------------------

void TestHfTokenizer::llama2_sentencepiece_bpe() {
    const HfTokenizer& tok = tokenizer("llama2_tiny");
    QCOMPARE(QString::fromStdString(tok.kind()),
             QStringLiteral("BPE, byte fallback (tokenizer.json)"));
    // Prepend("▁") then Replace(" ", "▁"): "▁hello▁world", one word (no pre-tokenizer).
    // Merges by rank: ▁ h, ▁h e, l l, ▁he ll, ▁hell o -> "▁hello" (271); ▁ w, o r, ▁w or, l d,
    // ▁wor ld -> "▁world" (276).  The template puts <s> (1) first.  The prepended ▁ shares the
    // alignment of "h", so "▁hello" covers (0, 5); the ▁ that replaced the space covers it.
    const Encoding e = tok.encode("hello world");
    CHECK_TOKENS(e, {1, "<s>", "<s>", 0, 0}, {271, "▁hello", "hello", 0, 5},
                 {276, "▁world", " world", 5, 11});
    CHECK_VECTOR("special", e.special, 1, 0, 0);
    // Two spaces: "▁hello▁▁world".  "▁ w" (rank 5) applies before "▁ ▁" (rank 10), so the
    // first ▁ is left alone (259), shown as the space it stands for.
    const Encoding two = tok.encode("hello  world", std::nullopt, false);
    CHECK_TOKENS(two, {271, "▁hello", "hello", 0, 5}, {259, "▁", " ", 5, 6},
                 {276, "▁world", " world", 6, 12});
}

void TestHfTokenizer::llama2_byte_fallback() {
    const HfTokenizer& tok = tokenizer("llama2_tiny");
    // 猫 is not in the vocabulary: byte_fallback gives <0xE7> <0x8C> <0xAB> (3 + byte value).
    // All three carry 猫's offsets, as does the prepended ▁.
    const Encoding e = tok.encode("猫", std::nullopt, false);
    CHECK_TOKENS(e, {259, "▁", " ", 0, 1}, {234, "<0xE7>", "猫[1/3]", 0, 1},
                 {143, "<0x8C>", "猫[2/3]", 0, 1}, {174, "<0xAB>", "猫[3/3]", 0, 1});
}

void TestHfTokenizer::llama2_pair_and_typed_bos() {
    const HfTokenizer& tok = tokenizer("llama2_tiny");
    // Pair template "<s>:0 $A:0 <s>:1 $B:1".
    const Encoding p = tok.encode("hello", std::string_view("world"));
    CHECK_TOKENS(p, {1, "<s>", "<s>", 0, 0}, {271, "▁hello", "hello", 0, 5},
                 {1, "<s>", "<s>", 0, 0}, {276, "▁world", "world", 0, 5});
    CHECK_VECTOR("type_ids", p.type_ids, 0, 0, 1, 1);
    CHECK_VECTOR("sequence", p.sequence, -1, 0, -1, 1);
    // "<s>" typed in is the special added token (normalized: false, so found before Prepend);
    // the rest, "hi", is normalised on its own: "▁hi" -> "▁h" (▁ h) + byte fallback <0x69>.
    const Encoding typed = tok.encode("<s>hi");
    CHECK_TOKENS(typed, {1, "<s>", "<s>", 0, 0}, {1, "<s>", "<s>", 0, 3}, {267, "▁h", "h", 3, 4},
                 {108, "<0x69>", "i", 4, 5});
    CHECK_VECTOR("special", typed.special, 1, 1, 0, 0);
    CHECK_VECTOR("sequence", typed.sequence, -1, 0, 0, 0);
}

void TestHfTokenizer::llama3_ignore_merges() {
    const HfTokenizer& tok = tokenizer("llama3_tiny");
    // Llama 3's pattern splits "hello", " world", " ", "123", "45" (\p{N}{1,3}).  With
    // ignore_merges a piece that is a token is taken whole: "hello" (263), "Ġworld" (264, made
    // by no merge), "123" (265); "45" is not, so it is merged: "4" (19), "5" (20).  The
    // ByteLevel post-processor does not trim (trim_offsets false), the template adds
    // <|begin_of_text|> (266).
    const Encoding e = tok.encode("hello world 12345");
    CHECK_TOKENS(e, {266, "<|begin_of_text|>", "<|begin_of_text|>", 0, 0},
                 {263, "hello", "hello", 0, 5}, {264, "Ġworld", " world", 5, 11},
                 {220, "Ġ", " ", 11, 12}, {265, "123", "123", 12, 15}, {19, "4", "4", 15, 16},
                 {20, "5", "5", 16, 17});
    // A word that is not a token goes through the merges: s h e l l -> l l (rank 0), h e
    // (5), he ll (6) -> "s" (82) "hell" (262).
    CHECK_TOKENS(tok.encode("shell", std::nullopt, false), {82, "s", "s", 0, 1},
                 {262, "hell", "hell", 1, 5});
    QVERIFY(tok.kind().find("ignore_merges") != std::string::npos);
}

void TestHfTokenizer::wordlevel_normalizers_and_pre_tokenizers() {
    const HfTokenizer& tok = tokenizer("wordlevel_tiny");
    // NFKC turns the ligature ﬁ into "fi", Lowercase, Strip drops the outer spaces;
    // Whitespace splits \w+ | [^\w\s]+, Digits(individual_digits) splits "12" in two.
    // BertProcessing adds [CLS] (1) and [SEP] (2).  Offsets point into the original text.
    const Encoding e = tok.encode("  Hello WORLD!  ﬁ 12 ?!  ");
    CHECK_TOKENS(e, {1, "[CLS]", "[CLS]", 0, 0}, {3, "hello", "Hello", 2, 7},
                 {4, "world", "WORLD", 8, 13}, {5, "!", "!", 13, 14}, {8, "fi", "ﬁ", 16, 17},
                 {6, "1", "1", 18, 19}, {7, "2", "2", 19, 20}, {9, "?!", "?!", 21, 23},
                 {2, "[SEP]", "[SEP]", 0, 0});
    // Unknown words are the unk token.
    CHECK_TOKENS(tok.encode("hello there", std::nullopt, false), {3, "hello", "hello", 0, 5},
                 {0, "[UNK]", "there", 6, 11});
    // BertProcessing: A [SEP] then B [SEP], type 1 for the second text.
    const Encoding p = tok.encode("hello", std::string_view("world"));
    CHECK_VECTOR("ids", p.ids, 1, 3, 2, 4, 2);
    CHECK_VECTOR("type_ids", p.type_ids, 0, 0, 0, 1, 1);
}

void TestHfTokenizer::roberta_lstrip_single_word_and_trimmed_offsets() {
    const HfTokenizer& tok = tokenizer("roberta_tiny");
    // <mask> (added, id 265 = first free id) has lstrip: it takes the space before it, and
    // RobertaProcessing's trim_offsets moves its start past that space again.  "hello"
    // without a leading space is h e ll o (only "l l" applies).
    const Encoding e = tok.encode("hello <mask>!");
    CHECK_TOKENS(e, {0, "<s>", "<s>", 0, 0}, {75, "h", "h", 0, 1}, {72, "e", "e", 1, 2},
                 {262, "ll", "ll", 2, 4}, {82, "o", "o", 4, 5}, {265, "<mask>", "<mask>", 6, 12},
                 {4, "!", "!", 12, 13}, {2, "</s>", "</s>", 0, 0});
    // [DAY] is single_word: found at the start, refused after "x" (a word character).  The
    // lone "Ġ" is trimmed to the empty range (6, 6) and shown as the space it is.
    const Encoding day = tok.encode("[DAY] x[DAY]");
    CHECK_TOKENS(day, {0, "<s>", "<s>", 0, 0}, {266, "[DAY]", "[DAY]", 0, 5}, {224, "Ġ", " ", 6, 6},
                 {91, "x", "x", 6, 7}, {62, "[", "[", 7, 8}, {39, "D", "D", 8, 9},
                 {36, "A", "A", 9, 10}, {60, "Y", "Y", 10, 11}, {64, "]", "]", 11, 12},
                 {2, "</s>", "</s>", 0, 0});
    CHECK_VECTOR("special", day.special, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    // RoBERTa pairs: <s> A </s> </s> B </s>, all type 0.
    const Encoding p = tok.encode(" hello", std::string_view("!"));
    CHECK_VECTOR("ids", p.ids, 0, 264, 2, 2, 4, 2);
    CHECK_VECTOR("type_ids", p.type_ids, 0, 0, 0, 0, 0, 0);
    CHECK_VECTOR("sequence", p.sequence, -1, 0, -1, -1, 1, -1);
}

void TestHfTokenizer::metaspace_prepend_first_and_fused_unk() {
    const HfTokenizer& tok = tokenizer("metaspace_tiny");
    // Metaspace: spaces become ▁, one ▁ is prepended ("first": only to the text's first
    // piece), split before each ▁: "▁ab", "▁ab€€", "▁b".  € is unknown: with fuse_unk the two
    // make one <unk>.  "▁ b" is no merge.
    const Encoding e = tok.encode("ab ab€€ b");
    CHECK_TOKENS(e, {7, "▁ab", "ab", 0, 2}, {7, "▁ab", " ab", 2, 5}, {0, "<unk>", "€€", 5, 7},
                 {1, "▁", " ", 7, 8}, {3, "b", "b", 8, 9});
    // After the added token <sep> (8), "b" does not start the text: nothing is prepended.
    const Encoding sep = tok.encode("a<sep>b");
    CHECK_TOKENS(sep, {4, "▁a", "a", 0, 1}, {8, "<sep>", "<sep>", 1, 6}, {3, "b", "b", 6, 7});
}

// ---- tokenizer_config.json ------------------------------------------------------------------

void TestHfTokenizer::transformers_class_adjustments() {
    const std::string llama = read(folder("llama2_tiny") + "/tokenizer.json");
    // LlamaTokenizerFast rebuilds the template from add_bos_token / add_eos_token.
    const std::string eos = test::fresh_dir("llama_eos");
    write(eos + "/tokenizer.json", llama);
    write(eos + "/tokenizer_config.json",
          R"({"tokenizer_class": "LlamaTokenizer", "add_bos_token": true, "add_eos_token": true,
              "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"})");
    const Encoding e = HfTokenizer::from_folder(eos).encode("hello", std::string_view("world"));
    CHECK_VECTOR("ids", e.ids, 1, 271, 2, 1, 276, 2);
    CHECK_VECTOR("type_ids", e.type_ids, 0, 0, 0, 1, 1, 1);
    // Without a tokenizer_class nothing is rebuilt: the file's "<s> $A" template stays.
    const std::string plain = test::fresh_dir("llama_plain");
    write(plain + "/tokenizer.json", llama);
    write(plain + "/tokenizer_config.json", R"({"add_eos_token": true})");
    CHECK_VECTOR("ids", HfTokenizer::from_folder(plain).encode("hello").ids, 1, 271);

    // BertTokenizerFast takes do_lower_case from tokenizer_config.json (default true): a
    // tokenizer.json that does not lowercase is made to.
    const std::string bert = test::fresh_dir("bert_json");
    write(bert + "/tokenizer.json",
          R"({"normalizer": {"type": "BertNormalizer", "lowercase": false},
              "pre_tokenizer": {"type": "BertPreTokenizer"},
              "model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "hello": 1, "Hello": 2}}})");
    CHECK_VECTOR("ids", HfTokenizer::from_folder(bert).encode("Hello").ids, 2);
    write(bert + "/tokenizer_config.json", R"({"tokenizer_class": "BertTokenizer"})");
    CHECK_VECTOR("ids", HfTokenizer::from_folder(bert).encode("Hello").ids, 1);

    // A special token tokenizer_config.json names but tokenizer.json lacks is added (special,
    // found on the raw text) with the next free id.
    write(bert + "/tokenizer_config.json",
          R"({"tokenizer_class": "BertTokenizer", "mask_token": "[MASK]"})");
    const HfTokenizer masked = HfTokenizer::from_folder(bert);
    QCOMPARE(masked.token_to_id("[MASK]").value_or(-1), std::int64_t{3});
    const Encoding m = masked.encode("hello [MASK]");
    CHECK_VECTOR("ids", m.ids, 1, 3);
    CHECK_VECTOR("special", m.special, 0, 1);
}

// ---- API ------------------------------------------------------------------------------------

// Llama 2's and Llama 3's tokenizer_config.json as Meta ships them: AddedToken objects with
// "__type", added_tokens_decoder, and transformers' VERY_LARGE_INTEGER as model_max_length,
// an integer past 64 bits.  The folders open, their ids are unchanged, and the length is "no
// limit"; a real limit is read as one.
void TestHfTokenizer::shipped_tokenizer_configs_with_no_length_limit() {
    for (const char* name : {"llama2_tiny", "llama3_tiny"}) {
        const std::string config = read(folder(name) + "/tokenizer_config.json");
        QVERIFY(config.find("1000000000000000019884624838656") != std::string::npos);
        const HfTokenizer& tok = tokenizer(name);
        QVERIFY(!tok.model_max_length().has_value());
        const std::string dir = test::fresh_dir(std::string("limited_") + name);
        write(dir + "/tokenizer.json", read(folder(name) + "/tokenizer.json"));
        std::string limited = config;
        limited.replace(limited.find("1000000000000000019884624838656"), 31, "2048");
        write(dir + "/tokenizer_config.json", limited);
        const HfTokenizer with_limit = HfTokenizer::from_folder(dir);
        QCOMPARE(with_limit.model_max_length(), std::optional<std::int64_t>(2048));
        QCOMPARE(with_limit.encode("Hello world").ids, tok.encode("Hello world").ids);
    }
    // Llama 2: LlamaTokenizer's template from add_bos_token: <s> first, no </s>.
    QCOMPARE(tokenizer("llama2_tiny").encode("Hello").ids.front(), 1);
    QVERIFY(tokenizer("llama2_tiny").encode("Hello").ids.back() != 2);
    // Llama 3: bos from tokenizer_config.json.
    QCOMPARE(tokenizer("llama3_tiny").bos_id(), std::optional<std::int64_t>(266));
}

void TestHfTokenizer::api() {
    const HfTokenizer& qwen = tokenizer("qwen2");
    QCOMPARE(qwen.vocab_size(), std::int64_t{151669});  // 151,643 model tokens and 26 added ones
    QCOMPARE(qwen.token_to_id("<|im_end|>").value_or(-1), std::int64_t{151645});
    QCOMPARE(qwen.token_to_id("Ġworld").value_or(-1), std::int64_t{1879});
    QVERIFY(!qwen.token_to_id("no such token").has_value());
    QCOMPARE(QString::fromStdString(qwen.id_to_token(151645)), QStringLiteral("<|im_end|>"));
    QCOMPARE(QString::fromStdString(qwen.id_to_token(1879)), QStringLiteral("Ġworld"));
    QVERIFY(qwen.id_to_token(-1).empty());
    QVERIFY(qwen.id_to_token(151669).empty());
    QVERIFY(!qwen.bos_id().has_value());  // Qwen's tokenizer_config.json: bos_token null
    QCOMPARE(qwen.num_special_tokens_to_add(false), std::int64_t{0});
    const auto qs = qwen.special_tokens();
    QVERIFY(std::find(qs.begin(), qs.end(),
                      std::pair<std::string, std::int64_t>("<|endoftext|>", 151643)) != qs.end());
    // <tool_call> is an added token but not a special one.
    QVERIFY(
        std::none_of(qs.begin(), qs.end(), [](const auto& s) { return s.first == "<tool_call>"; }));
    QCOMPARE(QString::fromStdString(qwen.kind()),
             QStringLiteral("BPE, byte-level (tokenizer.json)"));

    const HfTokenizer& bert = tokenizer("bert-uncased");
    QCOMPARE(QString::fromStdString(bert.kind()), QStringLiteral("WordPiece (vocab.txt)"));
    QCOMPARE(bert.vocab_size(), std::int64_t{30522});
    QCOMPARE(bert.bos_id().value_or(-1), std::int64_t{101});  // [CLS] starts every text
    QCOMPARE(bert.num_special_tokens_to_add(false), std::int64_t{2});
    QCOMPARE(bert.num_special_tokens_to_add(true), std::int64_t{3});
    const std::vector<std::pair<std::string, std::int64_t>> bert_specials{
        {"[PAD]", 0}, {"[UNK]", 100}, {"[CLS]", 101}, {"[SEP]", 102}, {"[MASK]", 103}};
    QVERIFY(bert.special_tokens() == bert_specials);

    const HfTokenizer& gpt2 = tokenizer("gpt2");
    QCOMPARE(QString::fromStdString(gpt2.kind()),
             QStringLiteral("BPE, byte-level (vocab.json + merges.txt)"));
    QCOMPARE(gpt2.vocab_size(), std::int64_t{50257});
    QCOMPARE(gpt2.bos_id().value_or(-1), std::int64_t{50256});  // GPT2Tokenizer's bos_token
    QCOMPARE(gpt2.num_special_tokens_to_add(true), std::int64_t{0});

    QCOMPARE(tokenizer("llama2_tiny").bos_id().value_or(-1), std::int64_t{1});
    QCOMPARE(tokenizer("llama2_tiny").vocab_size(), std::int64_t{278});
    QCOMPARE(tokenizer("roberta_tiny").vocab_size(), std::int64_t{267});  // <mask> 265, [DAY] 266

    // Moving keeps the tokenizer; the moved-from object is only destroyed or assigned to.
    HfTokenizer a = HfTokenizer::from_folder(folder("wordlevel_tiny"));
    HfTokenizer b = std::move(a);
    QVERIFY(b.encode("hello").ids == (std::vector<std::int64_t>{1, 3, 2}));
    a = std::move(b);
    QVERIFY(a.encode("world", std::nullopt, false).ids == (std::vector<std::int64_t>{4}));

    // from_tokenizer_json reads the same file as from_folder.
    const std::string path = folder("llama2_tiny") + "/tokenizer.json";
    const HfTokenizer direct = HfTokenizer::from_tokenizer_json(read(path), path);
    QVERIFY(direct.encode("hello world").ids == tokenizer("llama2_tiny").encode("hello world").ids);
}

void TestHfTokenizer::long_text_and_threads() {
    const HfTokenizer& tok = tokenizer("qwen2");
    // 2,000 copies of a sentence: every copy after the first must encode the same way (the
    // BPE word cache must not change results), and offsets must keep increasing.
    const std::string sentence = " The cat sat on the mat, 猫坐在垫子上。";
    const Encoding one = tok.encode(sentence, std::nullopt, false);
    std::string text;
    for (int i = 0; i < 2000; ++i)
        text += sentence;
    const Encoding all = tok.encode(text, std::nullopt, false);
    QCOMPARE(all.size(), one.size() * 2000);
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all.ids[i] != one.ids[i % one.size()])
            QFAIL(qPrintable(QStringLiteral("token %1: got %2, expected %3")
                                 .arg(i)
                                 .arg(all.ids[i])
                                 .arg(one.ids[i % one.size()])));
    for (std::size_t i = 1; i < all.size(); ++i)
        QVERIFY2(all.offsets[i].first >= all.offsets[i - 1].first,
                 qPrintable(QStringLiteral("offsets go back at token %1").arg(i)));
    // Several threads on one tokenizer (the word cache is shared) get the same result.
    std::vector<std::vector<std::int64_t>> results(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] { results[t] = tok.encode(text, std::nullopt, false).ids; });
    for (auto& th : threads)
        th.join();
    for (const auto& r : results)
        QVERIFY(r == all.ids);
}

// ---- bad input ------------------------------------------------------------------------------

namespace {

/// A minimal valid WordLevel tokenizer.json with one part replaced.
std::string with(const std::string& part, const std::string& value) {
    std::map<std::string, std::string> parts{
        {"normalizer", "null"},
        {"pre_tokenizer", "{\"type\":\"WhitespaceSplit\"}"},
        {"model",
         "{\"type\":\"WordLevel\",\"vocab\":{\"<unk>\":0,\"a\":1},\"unk_token\":\"<unk>\"}"},
        {"post_processor", "null"},
        {"added_tokens", "[]"}};
    parts[part] = value;
    std::string out = "{\"version\":\"1.0\"";
    for (const auto& [k, v] : parts)
        out += ",\"" + k + "\":" + v;
    return out + "}";
}

const char* kBpe = "{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},\"merges\":";

}  // namespace

void TestHfTokenizer::bad_tokenizer_json_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("problem");
    QTest::newRow("not JSON") << "{\"model\": "
                              << "not valid JSON";
    QTest::newRow("not an object") << "[1, 2]"
                                   << "expected an object";
    QTest::newRow("no model") << "{\"version\":\"1.0\"}"
                              << "missing \"model\"";
    QTest::newRow("unknown version")
        << QString::fromStdString(with("normalizer", "null")).replace("\"1.0\"", "\"2.0\"")
        << "unknown tokenizer version \"2.0\"";
    QTest::newRow("unknown normalizer")
        << QString::fromStdString(with("normalizer", "{\"type\":\"Precompiled\"}"))
        << "normalizer: type \"Precompiled\" is not supported";
    QTest::newRow("unknown normalizer in a sequence")
        << QString::fromStdString(with(
               "normalizer",
               "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"NFC\"},{\"type\":\"Magic\"}]}"))
        << "normalizer.normalizers[1]: type \"Magic\" is not supported";
    QTest::newRow("pre-tokenizer sequence without a list")
        << QString::fromStdString(
               with("pre_tokenizer", "{\"type\":\"Sequence\",\"pretokenizers\":{}}"))
        << "pre_tokenizer.pretokenizers: expected an array, found an object";
    QTest::newRow("post-processor sequence without its list")
        << QString::fromStdString(with("post_processor", "{\"type\":\"Sequence\"}"))
        << "post_processor: missing \"processors\"";
    QTest::newRow("unknown post-processor in a sequence")
        << QString::fromStdString(with("post_processor",
                                       "{\"type\":\"Sequence\",\"processors\":[{\"type\":"
                                       "\"ByteLevel\"},{\"type\":\"Magic\"}]}"))
        << "post_processor.processors[1]: type \"Magic\" is not supported";
    QTest::newRow("unknown pre-tokenizer")
        << QString::fromStdString(with("pre_tokenizer", "{\"type\":\"UnicodeScripts\"}"))
        << "pre_tokenizer: type \"UnicodeScripts\" is not supported";
    QTest::newRow("unknown model")
        << QString::fromStdString(with("model", "{\"type\":\"Unigram\",\"vocab\":[[\"a\",0.0]]}"))
        << "model: type \"Unigram\" is not supported";
    QTest::newRow("unknown post-processor")
        << QString::fromStdString(with("post_processor", "{\"type\":\"Magic\"}"))
        << "post_processor: type \"Magic\" is not supported";
    QTest::newRow("no type") << QString::fromStdString(with("normalizer", "{\"lowercase\":true}"))
                             << "normalizer: missing \"type\"";
    QTest::newRow("empty vocabulary")
        << QString::fromStdString(with("model", "{\"type\":\"WordLevel\",\"vocab\":{}}"))
        << "model.vocab: the vocabulary is empty";
    QTest::newRow("negative id") << QString::fromStdString(with(
                                        "model", "{\"type\":\"WordLevel\",\"vocab\":{\"a\":-1}}"))
                                 << "id -1 is out of range";
    QTest::newRow("id beyond 32 bits")
        << QString::fromStdString(
               with("model", "{\"type\":\"WordLevel\",\"vocab\":{\"a\":4294967296}}"))
        << "id 4294967296 is out of range";
    QTest::newRow("fractional id")
        << QString::fromStdString(with("model", "{\"type\":\"WordLevel\",\"vocab\":{\"a\":1.5}}"))
        << "is out of range";
    QTest::newRow("merge of unknown token")
        << QString::fromStdString(with("model", std::string(kBpe) + "[\"a c\"]}"))
        << "model.merges[0]: \"c\" is not in the vocabulary";
    QTest::newRow("merge result unknown")
        << QString::fromStdString(with("model", std::string(kBpe) + "[\"b a\"]}"))
        << "the merged token \"ba\" is not in the vocabulary";
    QTest::newRow("merge not two tokens")
        << QString::fromStdString(with("model", std::string(kBpe) + "[\"a b ab\"]}"))
        << "is not two tokens separated by one space";
    QTest::newRow("merges mixed") << QString::fromStdString(with(
                                         "model", std::string(kBpe) + "[\"a b\", [\"a\", \"b\"]]}"))
                                  << "merges must be all";
    QTest::newRow("added token id out of range")
        << QString::fromStdString(
               with("added_tokens", "[{\"id\":-5,\"content\":\"<x>\",\"special\":true}]"))
        << "added_tokens[0].id: id -5 is out of range";
    QTest::newRow("template id beyond the vocabulary")
        << QString::fromStdString(
               with("post_processor",
                    "{\"type\":\"BertProcessing\",\"sep\":[\"[SEP]\",7],\"cls\":[\"[CLS]\",1]}"))
        << "\"[SEP]\" has id 7, but the vocabulary's ids end at 1";
    QTest::newRow("template names an undefined token")
        << QString::fromStdString(with(
               "post_processor",
               "{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":\"<s>\","
               "\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}}],\"pair\":[],"
               "\"special_tokens\":{}}"))
        << "which special_tokens does not define";
    QTest::newRow("single template with $B")
        << QString::fromStdString(
               with("post_processor",
                    "{\"type\":\"TemplateProcessing\",\"single\":[{\"Sequence\":{\"id\":\"B\","
                    "\"type_id\":0}}],\"pair\":[],\"special_tokens\":{}}"))
        << "the template for one text uses $B";
    QTest::newRow("bad regex")
        << QString::fromStdString(
               with("pre_tokenizer",
                    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(\"},\"behavior\":"
                    "\"Isolated\",\"invert\":false}"))
        << "pre_tokenizer.pattern: bad regular expression";
    QTest::newRow("unknown behavior")
        << QString::fromStdString(
               with("pre_tokenizer",
                    "{\"type\":\"Split\",\"pattern\":{\"String\":\" \"},\"behavior\":"
                    "\"Sideways\",\"invert\":false}"))
        << "unknown behavior \"Sideways\"";
    QTest::newRow("metaspace replacement of two characters")
        << QString::fromStdString(
               with("pre_tokenizer", "{\"type\":\"Metaspace\",\"replacement\":\"ab\"}"))
        << "expected one character";
    QTest::newRow("wrong value type")
        << QString::fromStdString(
               with("normalizer", "{\"type\":\"BertNormalizer\",\"lowercase\":\"yes\"}"))
        << "normalizer.lowercase: expected true or false, found a string";
}

void TestHfTokenizer::bad_tokenizer_json() {
    QFETCH(QString, json);
    QFETCH(QString, problem);
    const std::string message = data_error(
        [&] { (void)HfTokenizer::from_tokenizer_json(json.toStdString(), "bad/tokenizer.json"); });
    QVERIFY2(!message.empty(), "no DataError");
    QVERIFY2(message.rfind("bad/tokenizer.json: ", 0) == 0, message.c_str());
    QVERIFY2(message.find(problem.toStdString()) != std::string::npos, message.c_str());
}

void TestHfTokenizer::bad_folders() {
    const auto expect = [](const std::string& dir, const std::string& file,
                           const std::string& problem) {
        const std::string message = data_error([&] { (void)HfTokenizer::from_folder(dir); });
        QVERIFY2(!message.empty(), ("no DataError for " + dir).c_str());
        QVERIFY2(message.find(file) != std::string::npos, message.c_str());
        QVERIFY2(message.find(problem) != std::string::npos, message.c_str());
    };
    const std::string empty = test::fresh_dir("empty");
    write(empty + "/config.json", "{\"model_type\":\"bert\"}");
    expect(empty, empty, "no tokenizer files");
    expect(empty + "/missing", empty + "/missing", "not a folder");

    const std::string no_merges = test::fresh_dir("no_merges");
    write(no_merges + "/vocab.json", "{\"a\":0}");
    expect(no_merges, no_merges + "/merges.txt", "missing");

    const std::string bad_merge = test::fresh_dir("bad_merge");
    write(bad_merge + "/vocab.json", "{\"a\":0,\"b\":1,\"ab\":2}");
    write(bad_merge + "/merges.txt", "#version: 0.2\na b\nb c\n");
    expect(bad_merge, bad_merge + "/merges.txt: line 3", "\"c\" is not in vocab.json");

    const std::string empty_vocab = test::fresh_dir("empty_vocab");
    write(empty_vocab + "/vocab.txt", "");
    expect(empty_vocab, empty_vocab + "/vocab.txt", "the vocabulary is empty");

    const std::string broken_json = test::fresh_dir("broken_json");
    write(broken_json + "/tokenizer.json", "{\"model\":");
    write(broken_json + "/vocab.txt", "[UNK]\n");  // tokenizer.json wins, even when broken
    expect(broken_json, broken_json + "/tokenizer.json", "not valid JSON");

    const std::string broken_config = test::fresh_dir("broken_config");
    write(broken_config + "/vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\n");
    write(broken_config + "/tokenizer_config.json", "{\"do_lower_case\": maybe}");
    expect(broken_config, broken_config + "/tokenizer_config.json", "not valid JSON");

    // A GPT-2 checkpoint with a BERT vocab.txt (uer/gpt2-chinese-cluecorpussmall): the files
    // decide, not config.json's model_type.
    const std::string uer = test::fresh_dir("uer");
    write(uer + "/config.json", "{\"model_type\":\"gpt2\"}");
    write(uer + "/vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n我\n爱\n");
    const HfTokenizer t = HfTokenizer::from_folder(uer);
    QCOMPARE(QString::fromStdString(t.kind()), QStringLiteral("WordPiece (vocab.txt)"));
    QVERIFY(t.encode("我爱").ids == (std::vector<std::int64_t>{2, 5, 6, 3}));
}

QTEST_GUILESS_MAIN(TestHfTokenizer)
#include "test_hf_tokenizer.moc"
