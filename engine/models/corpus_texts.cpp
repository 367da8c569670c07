#include "engine/models/corpus_texts.h"

#include <algorithm>
#include <cstring>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"

namespace attnviz::models {

namespace {

/// The file's lines, each with its number from 1, without "\n" and a "\r" before it.
struct Line {
    std::string_view text;
    std::int64_t number;
};

std::vector<Line> split_lines(std::string_view bytes) {
    std::vector<Line> lines;
    std::int64_t number = 1;
    while (!bytes.empty()) {
        const std::size_t end = bytes.find('\n');
        std::string_view line = bytes.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back({line, number++});
        if (end == std::string_view::npos) break;
        bytes.remove_prefix(end + 1);
    }
    return lines;
}

bool is_blank(std::string_view line) {
    return line.find_first_not_of(" \t\f\v\r") == std::string_view::npos;
}

[[noreturn]] void refuse(const std::string& name, std::int64_t line, const std::string& problem) {
    throw DataError(name + ": line " + std::to_string(line) + " " + problem);
}

/// A NUL byte or bytes that are no UTF-8, named by their line (the whole file is checked at
/// once first: the lines are only looked at when it fails).
void check_text(std::string_view bytes, const std::string& name) {
    const bool nul = std::memchr(bytes.data(), 0, bytes.size()) != nullptr;
    if (!nul && io::json::is_valid_utf8(bytes)) return;
    for (const Line& line : split_lines(bytes)) {
        if (line.text.find('\0') != std::string_view::npos)
            refuse(name, line.number, "holds a NUL byte: a binary file, not a text corpus");
        if (!io::json::is_valid_utf8(line.text))
            refuse(name, line.number, "is not UTF-8 text (a binary file, or another encoding)");
    }
}

std::string jsonl_text(std::string_view line, std::int64_t number, const std::string& name) {
    io::json::Document doc;
    try {
        doc = io::json::parse(line);
    } catch (const io::json::ParseError& e) {
        refuse(name, number, std::string("is not JSON: ") + e.what());
    }
    std::optional<std::string_view> text = io::json::as_string(doc.root());
    if (!text)
        if (const auto member = io::json::find(doc.root(), "text"))
            text = io::json::as_string(*member);
    if (!text)
        refuse(name, number,
               std::string("is ") + io::json::type_name(doc.root()) +
                   ", not a JSON string or an object whose \"text\" is a string");
    if (text->empty()) refuse(name, number, "has an empty text");
    return std::string(*text);
}

}  // namespace

const char* corpus_format_name(CorpusFormat format) {
    switch (format) {
        case CorpusFormat::Lines:
            return "lines";
        case CorpusFormat::Paragraphs:
            return "paragraphs";
        case CorpusFormat::Jsonl:
            return "jsonl";
    }
    return "lines";
}

std::optional<CorpusFormat> corpus_format_from_name(std::string_view name) {
    for (const CorpusFormat f :
         {CorpusFormat::Lines, CorpusFormat::Paragraphs, CorpusFormat::Jsonl})
        if (name == corpus_format_name(f)) return f;
    return std::nullopt;
}

CorpusFormat guess_corpus_format(const std::string& path, std::string_view bytes) {
    if (path.size() >= 6 && path.compare(path.size() - 6, 6, ".jsonl") == 0)
        return CorpusFormat::Jsonl;
    bool text_before = false, blank_after_text = false;
    for (const Line& line : split_lines(bytes)) {
        if (is_blank(line.text)) {
            blank_after_text = text_before;
        } else {
            if (blank_after_text) return CorpusFormat::Paragraphs;
            text_before = true;
        }
    }
    return CorpusFormat::Lines;
}

std::vector<CorpusEntry> split_corpus(std::string_view bytes, CorpusFormat format,
                                      const std::string& name) {
    if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
    check_text(bytes, name);
    std::vector<CorpusEntry> texts;
    CorpusEntry* open = nullptr;  // paragraphs: the text whose lines are being joined
    for (const Line& line : split_lines(bytes)) {
        if (is_blank(line.text)) {
            open = nullptr;
            continue;
        }
        switch (format) {
            case CorpusFormat::Lines:
                texts.push_back({std::string(line.text), line.number});
                break;
            case CorpusFormat::Jsonl:
                texts.push_back({jsonl_text(line.text, line.number, name), line.number});
                break;
            case CorpusFormat::Paragraphs:
                if (open) {
                    open->text += '\n';
                    open->text += line.text;
                } else {
                    texts.push_back({std::string(line.text), line.number});
                    open = &texts.back();
                }
                break;
        }
    }
    if (texts.empty())
        throw FileError(ErrorCode::FileEmpty, {name, "corpus"},
                        name + ": no texts (the file is empty or holds only blank lines)");
    return texts;
}

std::vector<CorpusEntry> read_corpus(const std::string& path, std::optional<CorpusFormat> format) {
    const std::string bytes = io::read_file(path);
    return split_corpus(bytes, format.value_or(guess_corpus_format(path, bytes)), path);
}

EncodedText encode_corpus_text(const OpenedModel& m, std::string_view text, std::int64_t max_tokens,
                               bool* truncated) {
    *truncated = false;
    EncodedText out;
    std::int64_t keep = max_tokens;
    try {
        out = encode_text(m, text);
    } catch (const TextTooLong& too_long) {
        if (max_tokens <= 0) throw;
        out.encoding = encode_pieces(m.tokenizer, text);
        keep = std::min(max_tokens, too_long.max_positions);
    }
    text::Encoding& e = out.encoding;
    if (keep > 0 && std::int64_t(e.ids.size()) > keep) {
        const auto n = std::size_t(keep);
        const auto cut = [n](auto& v) {
            if (v.size() > n) v.resize(n);
        };
        cut(e.ids);
        cut(e.tokens);
        cut(e.text);
        cut(e.offsets);
        cut(e.special);
        cut(e.type_ids);
        cut(e.sequence);
        *truncated = true;
    }
    out.input.ids = e.ids;
    if (std::any_of(e.type_ids.begin(), e.type_ids.end(), [](std::int64_t t) { return t != 0; }))
        out.input.token_type_ids = e.type_ids;
    return out;
}

}  // namespace attnviz::models
