// The tokenizer on the scripts AttnViz users type (English, Chinese, Japanese, Korean, Arabic,
// Cyrillic, Greek, Devanagari), emoji, invalid UTF-8, and the token-list helpers.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <QTest>

#include <string>
#include <vector>

#include "engine/ops/random.h"
#include "engine/text/tokenizer.h"
#include "engine/text/unicode.h"
#include "test_support.h"

using attnviz::text::TokenizerOptions;
namespace unicode = attnviz::text::unicode;

namespace {

QStringList to_qt(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens)
        list << QString::fromStdString(t);
    return list;
}

std::string bytes(const QByteArray& a) {
    return std::string(a.constData(), std::size_t(a.size()));
}

std::vector<std::string> tokenize(const QByteArray& text, TokenizerOptions options = {}) {
    return attnviz::text::tokenize(bytes(text), options);
}

// Valid UTF-8, non-empty, and no whitespace inside.
bool well_formed_token(const std::string& token) {
    if (token.empty() || unicode::sanitize_utf8(token) != token) return false;
    for (std::size_t pos = 0; pos < token.size();) {
        const auto d = unicode::decode(token, pos);
        if (unicode::is_whitespace(d.code_point)) return false;
        pos += d.length;
    }
    return true;
}

const char* const kFffd = "\xEF\xBF\xBD";

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

  private slots:
    void tokenize_data();
    void tokenize();
    void lowercase_data();
    void lowercase();
    void invalid_utf8_data();
    void invalid_utf8();
    void decode_lengths_data();
    void decode_lengths();
    void classify_data();
    void classify();
    void to_lower_data();
    void to_lower();
    void special_tokens_data();
    void special_tokens();
    void max_tokens_data();
    void max_tokens();
    void random_bytes_give_well_formed_tokens();
    void megabyte_of_text();
    void split_token_list_data();
    void split_token_list();
    void tokens_to_json_data();
    void tokens_to_json();
    void tokens_to_json_replaces_invalid_utf8();
};

void TestTokenizer::tokenize_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("expected");

    // English and punctuation.
    QTest::newRow("english") << QByteArray("The cat sat on the mat.")
                             << QStringList{"The", "cat", "sat", "on", "the", "mat", "."};
    QTest::newRow("contractions") << QByteArray("I don't think it's wrong, isn't it?")
                                  << QStringList{"I", "don't", "think", "it's", "wrong",
                                                 ",", "isn't", "it",    "?"};
    QTest::newRow("curly apostrophe")
        << QByteArray("l’homme qu’il") << QStringList{"l’homme", "qu’il"};
    QTest::newRow("quotes around words")
        << QByteArray("'quoted' rock'n'roll dogs' 'tis")
        << QStringList{"'", "quoted", "'", "rock'n'roll", "dogs", "'", "'", "tis"};
    QTest::newRow("apostrophe after digit") << QByteArray("90's") << QStringList{"90", "'", "s"};
    QTest::newRow("double apostrophe") << QByteArray("a''b") << QStringList{"a", "'", "'", "b"};
    QTest::newRow("punctuation run")
        << QByteArray("Wait...what?!") << QStringList{"Wait", ".", ".", ".", "what", "?", "!"};
    QTest::newRow("hyphens") << QByteArray("state-of-the-art")
                             << QStringList{"state", "-", "of", "-", "the", "-", "art"};
    QTest::newRow("letters and digits") << QByteArray("GPT4 and BERT-base 2nd")
                                        << QStringList{"GPT4", "and", "BERT", "-", "base", "2nd"};
    QTest::newRow("decimal numbers")
        << QByteArray("pi is 3.14, e is 2.718.")
        << QStringList{"pi", "is", "3.14", ",", "e", "is", "2.718", "."};
    QTest::newRow("version number") << QByteArray("v1.2.3") << QStringList{"v1.2.3"};
    QTest::newRow("thousands separator splits")
        << QByteArray("1,000") << QStringList{"1", ",", "000"};
    QTest::newRow("dot without digit after")
        << QByteArray("3. .5 a.b") << QStringList{"3", ".", ".", "5", "a", ".", "b"};
    QTest::newRow("symbols") << QByteArray("$100 + 5% = €?")
                             << QStringList{"$", "100", "+", "5", "%", "=", "€", "?"};
    QTest::newRow("underscore and email")
        << QByteArray("snake_case me@example.com")
        << QStringList{"snake", "_", "case", "me", "@", "example", ".", "com"};
    QTest::newRow("trademark") << QByteArray("Apple™") << QStringList{"Apple", "™"};
    QTest::newRow("replacement char is a symbol") << QByteArray(
                                                         "a\xEF\xBF\xBD"
                                                         "b")
                                                  << QStringList{"a", kFffd, "b"};

    // CJK.
    QTest::newRow("chinese") << QByteArray("我爱自然语言处理。")
                             << QStringList{"我", "爱", "自", "然", "语", "言", "处", "理", "。"};
    QTest::newRow("chinese and latin")
        << QByteArray("我爱NLP和deep learning！")
        << QStringList{"我", "爱", "NLP", "和", "deep", "learning", "！"};
    QTest::newRow("chinese punctuation") << QByteArray("他说：「你好」，然后走了、")
                                         << QStringList{"他", "说", "：", "「", "你", "好", "」",
                                                        "，", "然", "后", "走", "了", "、"};
    QTest::newRow("cjk extension b") << QByteArray("\xF0\xA0\x80\x80\xF0\xA0\x80\x81")
                                     << QStringList{"\xF0\xA0\x80\x80", "\xF0\xA0\x80\x81"};
    QTest::newRow("bopomofo") << QByteArray("ㄅㄆㄇ") << QStringList{"ㄅ", "ㄆ", "ㄇ"};
    QTest::newRow("japanese") << QByteArray("私は学生です。")
                              << QStringList{"私", "は", "学", "生", "で", "す", "。"};
    QTest::newRow("katakana") << QByteArray("コンピューター")
                              << QStringList{"コ", "ン", "ピ", "ュ", "ー", "タ", "ー"};
    QTest::newRow("combining dakuten stays")
        << QByteArray("か\xE3\x82\x99き") << QStringList{"か\xE3\x82\x99", "き"};
    QTest::newRow("korean") << QByteArray("안녕하세요, 세계!")
                            << QStringList{"안", "녕", "하", "세", "요", ",", "세", "계", "!"};
    QTest::newRow("fullwidth") << QByteArray("ＧＰＴ４！（测试）")
                               << QStringList{"ＧＰＴ４", "！", "（", "测", "试", "）"};
    QTest::newRow("fullwidth comma")
        << QByteArray("你好，世界") << QStringList{"你", "好", "，", "世", "界"};

    // Other scripts.
    QTest::newRow("arabic") << QByteArray("مرحبا بالعالم") << QStringList{"مرحبا", "بالعالم"};
    QTest::newRow("arabic punctuation")
        << QByteArray("مرحبا، كيف حالك؟") << QStringList{"مرحبا", "،", "كيف", "حالك", "؟"};
    QTest::newRow("arabic diacritics") << QByteArray("كَتَبَ") << QStringList{"كَتَبَ"};
    QTest::newRow("persian zwnj") << QByteArray("می\xE2\x80\x8Cخواهم")
                                  << QStringList{"می\xE2\x80\x8Cخواهم"};
    QTest::newRow("hebrew") << QByteArray("שלום עולם") << QStringList{"שלום", "עולם"};
    QTest::newRow("cyrillic") << QByteArray("Привет, мир!")
                              << QStringList{"Привет", ",", "мир", "!"};
    QTest::newRow("greek") << QByteArray("Γειά σου κόσμε;")
                           << QStringList{"Γειά", "σου", "κόσμε", ";"};
    QTest::newRow("devanagari") << QByteArray("नमस्ते दुनिया।") << QStringList{"नमस्ते", "दुनिया", "।"};
    QTest::newRow("combining acute")
        << QByteArray("e\xCC\x81te\xCC\x81") << QStringList{"e\xCC\x81te\xCC\x81"};

    // Emoji.
    QTest::newRow("emoji with vs16")
        << QByteArray("I \xE2\x9D\xA4\xEF\xB8\x8F NLP \xF0\x9F\x98\x80")
        << QStringList{"I", "\xE2\x9D\xA4\xEF\xB8\x8F", "NLP", "\xF0\x9F\x98\x80"};
    QTest::newRow("emoji between words")
        << QByteArray("hello😀😀world") << QStringList{"hello", "😀", "😀", "world"};
    QTest::newRow("zwj technologist")
        << QByteArray("\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB coder")
        << QStringList{"\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB", "coder"};
    QTest::newRow("zwj family") << QByteArray("👨\xE2\x80\x8D👩\xE2\x80\x8D👧!")
                                << QStringList{"👨\xE2\x80\x8D👩\xE2\x80\x8D👧", "!"};
    QTest::newRow("flags paired") << QByteArray("🇨🇳🇺🇸🇫") << QStringList{"🇨🇳", "🇺🇸", "🇫"};
    QTest::newRow("skin tones") << QByteArray("👍🏽👋🏿")
                                << QStringList{"👍🏽", "👋🏿"};
    QTest::newRow("lone skin tone") << QByteArray("a🏽") << QStringList{"a", "🏽"};
    QTest::newRow("skin tone in zwj sequence")
        << QByteArray("👩🏽\xE2\x80\x8D💻") << QStringList{"👩🏽\xE2\x80\x8D💻"};
    QTest::newRow("keycaps") << QByteArray(
                                    "1\xEF\xB8\x8F\xE2\x83\xA3"
                                    "2\xEF\xB8\x8F\xE2\x83\xA3#\xEF\xB8\x8F\xE2\x83\xA3")
                             << QStringList{"1\xEF\xB8\x8F\xE2\x83\xA3",
                                            "2\xEF\xB8\x8F\xE2\x83\xA3",
                                            "#\xEF\xB8\x8F\xE2\x83\xA3"};
    QTest::newRow("keycap after word")
        << QByteArray("a1\xE2\x83\xA3") << QStringList{"a", "1\xE2\x83\xA3"};
    QTest::newRow("rainbow flag") << QByteArray("🏳\xEF\xB8\x8F\xE2\x80\x8D🌈")
                                  << QStringList{"🏳\xEF\xB8\x8F\xE2\x80\x8D🌈"};
    QTest::newRow("heart on fire") << QByteArray("\xE2\x9D\xA4\xEF\xB8\x8F\xE2\x80\x8D🔥")
                                   << QStringList{"\xE2\x9D\xA4\xEF\xB8\x8F\xE2\x80\x8D🔥"};
    QTest::newRow("england flag tags")
        << QByteArray(
               "🏴\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5\xF3\xA0\x81\xAE"
               "\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF ok")
        << QStringList{
               "🏴\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5\xF3\xA0\x81\xAE"
               "\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF",
               "ok"};
    QTest::newRow("dangling zwj dropped")
        << QByteArray("😀\xE2\x80\x8D a\xE2\x80\x8D") << QStringList{"😀", "a"};

    // Whitespace, control and invisible characters.
    QTest::newRow("ideographic space") << QByteArray("你好\xE3\x80\x80世界 hello\xE3\x80\x80world")
                                       << QStringList{"你", "好", "世", "界", "hello", "world"};
    QTest::newRow("nbsp and other spaces") << QByteArray(
                                                  "a\xC2\xA0"
                                                  "b\xE2\x80\x83"
                                                  "c\xE2\x80\xAF"
                                                  "d")
                                           << QStringList{"a", "b", "c", "d"};
    QTest::newRow("tabs and newlines") << QByteArray("a\tb\r\nc\n\n") << QStringList{"a", "b", "c"};
    QTest::newRow("c0 and del dropped") << QByteArray(
                                               "a\x01"
                                               "b\x7F c\x1B")
                                        << QStringList{"ab", "c"};
    QTest::newRow("nul dropped") << QByteArray("a\0b c", 5) << QStringList{"ab", "c"};
    QTest::newRow("c1 dropped, nel is whitespace")
        << QByteArray("x\xC2\x80y\xC2\x85z") << QStringList{"xy", "z"};
    QTest::newRow("zero width space dropped")
        << QByteArray("zero\xE2\x80\x8Bwidth") << QStringList{"zerowidth"};
    QTest::newRow("bom dropped") << QByteArray("\xEF\xBB\xBFhello") << QStringList{"hello"};
    QTest::newRow("soft hyphen dropped")
        << QByteArray("soft\xC2\xADhyphen") << QStringList{"softhyphen"};
    QTest::newRow("bidi marks dropped") << QByteArray(
                                               "\xE2\x80\x8F"
                                               "abc\xE2\x80\x8E")
                                        << QStringList{"abc"};
    QTest::newRow("empty") << QByteArray("") << QStringList{};
    QTest::newRow("whitespace only") << QByteArray("  \t\n\xE3\x80\x80\xC2\xA0 ") << QStringList{};
    QTest::newRow("invisible only")
        << QByteArray("\x01\x02\xE2\x80\x8B\xEF\xBB\xBF") << QStringList{};
}

void TestTokenizer::tokenize() {
    QFETCH(QByteArray, text);
    QFETCH(QStringList, expected);
    const auto tokens = ::tokenize(text);
    QCOMPARE(to_qt(tokens), expected);
    for (const auto& t : tokens)
        QVERIFY2(well_formed_token(t), t.c_str());
}

void TestTokenizer::lowercase_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("ascii") << QByteArray("The CAT Sat") << QStringList{"the", "cat", "sat"};
    QTest::newRow("latin-1") << QByteArray("ÀÉÎÕÜÇÑ ÆØÞ ß ×")
                             << QStringList{"àéîõüçñ", "æøþ", "ß", "×"};
    QTest::newRow("latin extended-a")
        << QByteArray("ŁÓDŹ ĞİŞ ŸŒ") << QStringList{"łódź", "ğiş", "ÿœ"};
    QTest::newRow("vietnamese") << QByteArray("TIẾNG VIỆT") << QStringList{"tiếng", "việt"};
    QTest::newRow("greek") << QByteArray("ΑΒΓ ΆΈΉΊΌΎΏ") << QStringList{"αβγ", "άέήίόύώ"};
    QTest::newRow("greek final sigma")
        << QByteArray("ΣΟΦΟΣ Σ ΟΔΟΣ.") << QStringList{"σοφος", "σ", "οδος", "."};
    QTest::newRow("cyrillic") << QByteArray("ПРИВЕТ МИР Ёж ЄЇ")
                              << QStringList{"привет", "мир", "ёж", "єї"};
    QTest::newRow("fullwidth") << QByteArray("ＧＰＴ") << QStringList{"ｇｐｔ"};
    QTest::newRow("cjk unchanged") << QByteArray("我爱NLP") << QStringList{"我", "爱", "nlp"};
    QTest::newRow("lowercase input unchanged")
        << QByteArray("déjà vu") << QStringList{"déjà", "vu"};
}

void TestTokenizer::lowercase() {
    QFETCH(QByteArray, text);
    QFETCH(QStringList, expected);
    TokenizerOptions options;
    options.lowercase = true;
    QCOMPARE(to_qt(::tokenize(text, options)), expected);
}

void TestTokenizer::invalid_utf8_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("expected");
    const QString r = QString::fromUtf8(kFffd);
    QTest::newRow("lone continuation") << QByteArray("\x80") << QStringList{r};
    QTest::newRow("continuation inside word") << QByteArray(
                                                     "a\x80"
                                                     "b")
                                              << QStringList{"a", r, "b"};
    QTest::newRow("two continuations") << QByteArray("\x80\xBF") << QStringList{r, r};
    QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << QStringList{r, r};
    QTest::newRow("overlong 3 bytes") << QByteArray("\xE0\x80\xAF") << QStringList{r, r, r};
    QTest::newRow("overlong 4 bytes") << QByteArray("\xF0\x80\x80\xAF") << QStringList{r, r, r, r};
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << QStringList{r, r, r};
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << QStringList{r, r, r, r};
    QTest::newRow("F5..FF") << QByteArray("\xF5\xFE\xFF") << QStringList{r, r, r};
    QTest::newRow("truncated 3-byte") << QByteArray("\xE4\xBD") << QStringList{r};
    QTest::newRow("truncated 3-byte then letter") << QByteArray("\xE4\xBDx") << QStringList{r, "x"};
    QTest::newRow("truncated 4-byte") << QByteArray("\xF0\x9F\x98") << QStringList{r};
    QTest::newRow("truncated at end") << QByteArray("ok\xC3") << QStringList{"ok", r};
    QTest::newRow("truncated emoji then emoji")
        << QByteArray("\xF0\x9F\x98\xF0\x9F\x98\x80") << QStringList{r, "😀"};
    QTest::newRow("valid 4-byte") << QByteArray("\xF0\x9F\x98\x80") << QStringList{"😀"};
}

void TestTokenizer::invalid_utf8() {
    QFETCH(QByteArray, text);
    QFETCH(QStringList, expected);
    const auto tokens = ::tokenize(text);
    QCOMPARE(to_qt(tokens), expected);
    for (const auto& t : tokens)
        QVERIFY(well_formed_token(t));
}

void TestTokenizer::decode_lengths_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<uint>("code_point");
    QTest::addColumn<int>("length");
    QTest::newRow("ascii") << QByteArray("A") << uint('A') << 1;
    QTest::newRow("2 bytes") << QByteArray("\xC3\xA9") << 0xE9u << 2;
    QTest::newRow("3 bytes") << QByteArray("\xE6\x88\x91") << 0x6211u << 3;
    QTest::newRow("4 bytes") << QByteArray("\xF0\x9F\x98\x80") << 0x1F600u << 4;
    QTest::newRow("max") << QByteArray("\xF4\x8F\xBF\xBF") << 0x10FFFFu << 4;
    QTest::newRow("truncated keeps maximal subpart") << QByteArray("\xE4\xBD") << 0xFFFDu << 2;
    QTest::newRow("surrogate lead alone") << QByteArray("\xED\xA0\x80") << 0xFFFDu << 1;
    QTest::newRow("overlong lead alone") << QByteArray("\xC0\xAF") << 0xFFFDu << 1;
    QTest::newRow("bad third byte") << QByteArray("\xF0\x9F\x41") << 0xFFFDu << 2;
}

void TestTokenizer::decode_lengths() {
    QFETCH(QByteArray, text);
    QFETCH(uint, code_point);
    QFETCH(int, length);
    const auto d = unicode::decode(bytes(text), 0);
    QCOMPARE(uint(d.code_point), code_point);
    QCOMPARE(int(d.length), length);
}

void TestTokenizer::classify_data() {
    QTest::addColumn<uint>("code_point");
    QTest::addColumn<int>("expected");
    using C = unicode::CharClass;
    const auto row = [](const char* name, char32_t cp, C cls) {
        QTest::newRow(name) << uint(cp) << int(cls);
    };
    row("CJK U+4E00", 0x4E00, C::Ideograph);
    row("CJK U+9FFF", 0x9FFF, C::Ideograph);
    row("Ext A", 0x3400, C::Ideograph);
    row("Ext B", 0x20000, C::Ideograph);
    row("Ext C", 0x2A700, C::Ideograph);
    row("Ext D", 0x2B740, C::Ideograph);
    row("Ext E", 0x2B820, C::Ideograph);
    row("Ext F", 0x2CEB0, C::Ideograph);
    row("Ext G", 0x30000, C::Ideograph);
    row("compatibility", 0xF900, C::Ideograph);
    row("compatibility supplement", 0x2F800, C::Ideograph);
    row("hiragana", 0x3042, C::Ideograph);
    row("katakana", 0x30A2, C::Ideograph);
    row("halfwidth katakana", 0xFF71, C::Ideograph);
    row("hangul syllable", 0xAC00, C::Ideograph);
    row("bopomofo", 0x3105, C::Ideograph);
    row("ideographic full stop", 0x3002, C::Punctuation);
    row("corner bracket", 0x300C, C::Punctuation);
    row("fullwidth comma", 0xFF0C, C::Punctuation);
    row("fullwidth exclamation", 0xFF01, C::Punctuation);
    row("em dash", 0x2014, C::Punctuation);
    row("inverted question", 0x00BF, C::Punctuation);
    row("replacement char", 0xFFFD, C::Punctuation);
    row("ideographic space", 0x3000, C::Whitespace);
    row("nbsp", 0x00A0, C::Whitespace);
    row("em space", 0x2003, C::Whitespace);
    row("next line", 0x0085, C::Whitespace);
    row("grinning face", 0x1F600, C::Emoji);
    row("rocket", 0x1F680, C::Emoji);
    row("1FAFF", 0x1FAFF, C::Emoji);
    row("sun", 0x2600, C::Emoji);
    row("heavy heart", 0x2764, C::Emoji);
    row("regional indicator", 0x1F1E8, C::RegionalIndicator);
    row("skin tone", 0x1F3FD, C::EmojiModifier);
    row("zero width space", 0x200B, C::Ignorable);
    row("bom", 0xFEFF, C::Ignorable);
    row("c0", 0x01, C::Ignorable);
    row("c1", 0x9F, C::Ignorable);
    row("soft hyphen", 0xAD, C::Ignorable);
    row("zwj", 0x200D, C::Joiner);
    row("vs16", 0xFE0F, C::VariationSelector);
    row("combining acute", 0x0301, C::Mark);
    row("keycap", 0x20E3, C::Mark);
    row("tag", 0xE0067, C::Tag);
    row("latin", U'a', C::Word);
    row("e acute", 0x00E9, C::Word);
    row("arabic", 0x0628, C::Word);
    row("arabic fatha", 0x064E, C::Word);
    row("cyrillic", 0x0416, C::Word);
    row("greek", 0x03B1, C::Word);
    row("devanagari", 0x0915, C::Word);
    row("devanagari vowel sign", 0x093F, C::Word);
    row("fullwidth A", 0xFF21, C::Word);
    row("fullwidth 0", 0xFF10, C::Word);
}

void TestTokenizer::classify() {
    QFETCH(uint, code_point);
    QFETCH(int, expected);
    QCOMPARE(int(unicode::classify(char32_t(code_point))), expected);
}

void TestTokenizer::to_lower_data() {
    QTest::addColumn<uint>("upper");
    QTest::addColumn<uint>("lower");
    QTest::newRow("A") << uint('A') << uint('a');
    QTest::newRow("z unchanged") << uint('z') << uint('z');
    QTest::newRow("À") << 0xC0u << 0xE0u;
    QTest::newRow("Þ") << 0xDEu << 0xFEu;
    QTest::newRow("× unchanged") << 0xD7u << 0xD7u;
    QTest::newRow("Ā") << 0x100u << 0x101u;
    QTest::newRow("Ĺ (odd pair)") << 0x139u << 0x13Au;
    QTest::newRow("Ÿ") << 0x178u << 0xFFu;
    QTest::newRow("Ž") << 0x17Du << 0x17Eu;
    QTest::newRow("Α") << 0x391u << 0x3B1u;
    QTest::newRow("Ω") << 0x3A9u << 0x3C9u;
    QTest::newRow("Ώ") << 0x38Fu << 0x3CEu;
    QTest::newRow("Ѐ") << 0x400u << 0x450u;
    QTest::newRow("Я") << 0x42Fu << 0x44Fu;
    QTest::newRow("Ѣ") << 0x462u << 0x463u;
    QTest::newRow("Ա") << 0x531u << 0x561u;
    QTest::newRow("Ạ") << 0x1EA0u << 0x1EA1u;
    QTest::newRow("Ａ") << 0xFF21u << 0xFF41u;
    QTest::newRow("我 unchanged") << 0x6211u << 0x6211u;
}

void TestTokenizer::to_lower() {
    QFETCH(uint, upper);
    QFETCH(uint, lower);
    QCOMPARE(uint(unicode::to_lower(char32_t(upper))), lower);
}

void TestTokenizer::special_tokens_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("max_tokens");
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("added") << QByteArray("Hello world") << 0 << false
                           << QStringList{"[CLS]", "Hello", "world", "[SEP]"};
    QTest::newRow("not lowercased")
        << QByteArray("Hello") << 0 << true << QStringList{"[CLS]", "hello", "[SEP]"};
    QTest::newRow("empty text stays empty") << QByteArray("") << 0 << false << QStringList{};
    QTest::newRow("blank text stays empty") << QByteArray(" \n\x01") << 0 << false << QStringList{};
    QTest::newRow("max 4 counts specials")
        << QByteArray("a b c d") << 4 << false << QStringList{"[CLS]", "a", "b", "[SEP]"};
    QTest::newRow("max 3") << QByteArray("a b c d") << 3 << false
                           << QStringList{"[CLS]", "a", "[SEP]"};
    QTest::newRow("max 2") << QByteArray("a b c d") << 2 << false << QStringList{"[CLS]", "[SEP]"};
    QTest::newRow("max 1") << QByteArray("a b c d") << 1 << false << QStringList{"[CLS]"};
    QTest::newRow("max 1 empty text") << QByteArray("") << 1 << false << QStringList{};
    QTest::newRow("max above length")
        << QByteArray("a b") << 10 << false << QStringList{"[CLS]", "a", "b", "[SEP]"};
}

void TestTokenizer::special_tokens() {
    QFETCH(QByteArray, text);
    QFETCH(int, max_tokens);
    QFETCH(bool, lowercase);
    QFETCH(QStringList, expected);
    TokenizerOptions options;
    options.add_special_tokens = true;
    options.lowercase = lowercase;
    options.max_tokens = std::size_t(max_tokens);
    QCOMPARE(to_qt(::tokenize(text, options)), expected);
}

void TestTokenizer::max_tokens_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("max_tokens");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("no limit") << QByteArray("a b c d") << 0 << QStringList{"a", "b", "c", "d"};
    QTest::newRow("cut") << QByteArray("a b c d") << 2 << QStringList{"a", "b"};
    QTest::newRow("one word") << QByteArray("abc def") << 1 << QStringList{"abc"};
    QTest::newRow("word then punctuation") << QByteArray("abc!def") << 1 << QStringList{"abc"};
    QTest::newRow("word then emoji") << QByteArray("ab😀cd") << 2 << QStringList{"ab", "😀"};
    QTest::newRow("cjk") << QByteArray("我爱你") << 2 << QStringList{"我", "爱"};
    QTest::newRow("limit above length") << QByteArray("a b") << 5 << QStringList{"a", "b"};
}

void TestTokenizer::max_tokens() {
    QFETCH(QByteArray, text);
    QFETCH(int, max_tokens);
    QFETCH(QStringList, expected);
    TokenizerOptions options;
    options.max_tokens = std::size_t(max_tokens);
    QCOMPARE(to_qt(::tokenize(text, options)), expected);
}

void TestTokenizer::random_bytes_give_well_formed_tokens() {
    // Random bytes, biased towards UTF-8 lead and continuation bytes and the characters the
    // tokenizer looks ahead for (ZWJ, VS16, keycap, apostrophe, '.').
    attnviz::ops::Random random(20240601);
    const std::string pieces[] = {"\xE2\x80\x8D",
                                  "\xEF\xB8\x8F",
                                  "\xE2\x83\xA3",
                                  "'",
                                  ".",
                                  "1",
                                  "\xF0\x9F\x87",
                                  "\xCE\xA3",
                                  " "};
    std::string text;
    while (text.size() < 200000) {
        const std::uint64_t r = random.next_u64();
        if (r % 4 == 0)
            text += pieces[(r >> 8) % std::size(pieces)];
        else
            text.push_back(static_cast<char>(r >> 16));
    }
    for (bool lower : {false, true}) {
        TokenizerOptions options;
        options.lowercase = lower;
        const auto tokens = attnviz::text::tokenize(text, options);
        QVERIFY(!tokens.empty());
        for (const auto& t : tokens)
            QVERIFY2(well_formed_token(t), t.c_str());
        const QJsonDocument doc = QJsonDocument::fromJson(
            QByteArray::fromStdString(attnviz::text::tokens_to_json(tokens)));
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().size(), qsizetype(tokens.size()));
    }
}

void TestTokenizer::megabyte_of_text() {
    // A linear-time tokenizer handles a 1 MB paste; the count must be exact.
    const std::string sentence =
        "The quick brown fox 跳过了 lazy dogs' 3.14 🇨🇳 "
        "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB don't stop!\n";
    const std::size_t per_sentence = attnviz::text::tokenize(sentence).size();
    QCOMPARE(per_sentence, std::size_t(16));
    std::string text;
    std::size_t repeats = 0;
    while (text.size() < (1u << 20)) {
        text += sentence;
        ++repeats;
    }
    const auto tokens = attnviz::text::tokenize(text);
    QCOMPARE(tokens.size(), repeats * per_sentence);

    TokenizerOptions options;
    options.max_tokens = 1000;
    const auto cut = attnviz::text::tokenize(text, options);
    QCOMPARE(cut.size(), std::size_t(1000));
    QVERIFY(std::equal(cut.begin(), cut.end(), tokens.begin()));
}

void TestTokenizer::split_token_list_data() {
    QTest::addColumn<QByteArray>("list");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("lines") << QByteArray("the\ncat\nsat") << QStringList{"the", "cat", "sat"};
    QTest::newRow("lines trimmed, empty dropped")
        << QByteArray("  the  \r\n\r\n cat sat \n") << QStringList{"the", "cat sat"};
    QTest::newRow("lines keep bars") << QByteArray("a|b\nc|d") << QStringList{"a|b", "c|d"};
    QTest::newRow("old mac newlines") << QByteArray("a\rb") << QStringList{"a", "b"};
    QTest::newRow("bars") << QByteArray("a | b|c") << QStringList{"a", "b", "c"};
    QTest::newRow("bars, empty dropped") << QByteArray("|a||b|") << QStringList{"a", "b"};
    QTest::newRow("bars keep inner spaces")
        << QByteArray("New York | is") << QStringList{"New York", "is"};
    QTest::newRow("specials with bars")
        << QByteArray("[CLS]|hello|[SEP]") << QStringList{"[CLS]", "hello", "[SEP]"};
    QTest::newRow("whitespace") << QByteArray("the cat  sat\t!")
                                << QStringList{"the", "cat", "sat", "!"};
    QTest::newRow("unicode whitespace")
        << QByteArray("我\xE3\x80\x80爱\xC2\xA0你") << QStringList{"我", "爱", "你"};
    QTest::newRow("bom trimmed") << QByteArray("\xEF\xBB\xBFthe\ncat") << QStringList{"the", "cat"};
    QTest::newRow("invalid utf-8 replaced") << QByteArray(
                                                   "a\xFF"
                                                   "b c")
                                            << QStringList{
                                                   "a\xEF\xBF\xBD"
                                                   "b",
                                                   "c"};
    QTest::newRow("empty") << QByteArray("") << QStringList{};
    QTest::newRow("blank") << QByteArray("   ") << QStringList{};
    QTest::newRow("blank lines") << QByteArray("\n \n\t\n") << QStringList{};
    QTest::newRow("bars only") << QByteArray("| |") << QStringList{};
}

void TestTokenizer::split_token_list() {
    QFETCH(QByteArray, list);
    QFETCH(QStringList, expected);
    QCOMPARE(to_qt(attnviz::text::split_token_list(bytes(list))), expected);
}

void TestTokenizer::tokens_to_json_data() {
    QTest::addColumn<QStringList>("tokens");
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("empty") << QStringList{} << QByteArray("[]");
    QTest::newRow("one") << QStringList{"a"} << QByteArray("[\"a\"]");
    QTest::newRow("quote and backslash") << QStringList{"say \"hi\"", "back\\slash"}
                                         << QByteArray(R"(["say \"hi\"","back\\slash"])");
    QTest::newRow("control chars")
        << QStringList{"tab\there", "nl\n", "\x01", "\x1F\x7F"}
        << QByteArray(R"(["tab\u0009here","nl\u000a","\u0001","\u001f\u007f"])");
    QTest::newRow("utf-8 unchanged") << QStringList{"我爱", "👩\xE2\x80\x8D💻", "é"}
                                     << QByteArray("[\"我爱\",\"👩\xE2\x80\x8D💻\",\"é\"]");
    QTest::newRow("slash not escaped")
        << QStringList{"/", "[CLS]"} << QByteArray(R"(["/","[CLS]"])");
}

void TestTokenizer::tokens_to_json() {
    QFETCH(QStringList, tokens);
    QFETCH(QByteArray, json);
    std::vector<std::string> v;
    for (const auto& t : tokens)
        v.push_back(t.toStdString());
    const std::string out = attnviz::text::tokens_to_json(v);
    QCOMPARE(QByteArray::fromStdString(out), json);
    // An independent parser reads the same strings back.
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(out));
    QVERIFY(doc.isArray());
    QStringList back;
    for (const auto& value : doc.array())
        back << value.toString();
    QCOMPARE(back, tokens);
}

void TestTokenizer::tokens_to_json_replaces_invalid_utf8() {
    const std::string json = attnviz::text::tokens_to_json({"a\xFF", "\xC0\xAF"});
    QCOMPARE(QByteArray::fromStdString(json),
             QByteArray("[\"a\xEF\xBF\xBD\",\"\xEF\xBF\xBD\xEF\xBF\xBD\"]"));
}

QTEST_APPLESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
