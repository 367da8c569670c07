// The texts of a corpus file, as `attnviz corpus` reads them (and the window's Open Corpus):
// one text per line, one per paragraph, or one per JSON Lines record; then each text encoded
// as the model sees it, cut to a number of tokens when asked.
//
// A corpus file must be UTF-8 text: a NUL byte (a binary file) or bytes that are no UTF-8
// are refused with the line they are on, as is a JSON Lines record that is not a text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/models/model_folder.h"

namespace attnviz::models {

enum class CorpusFormat {
    Lines,       ///< each line that is not blank is a text
    Paragraphs,  ///< texts are separated by blank lines; a text's lines keep their breaks
    Jsonl,       ///< each line that is not blank is a JSON string, or an object whose "text" is
};

/// "lines", "paragraphs", "jsonl".
const char* corpus_format_name(CorpusFormat format);
/// The format named `name`, or nullopt.
std::optional<CorpusFormat> corpus_format_from_name(std::string_view name);

/// The format a file is read in when none is given: jsonl for a name ending in ".jsonl"; else
/// paragraphs when a blank line stands between two texts; else lines.
CorpusFormat guess_corpus_format(const std::string& path, std::string_view bytes);

struct CorpusEntry {
    std::string text;
    std::int64_t line = 0;  ///< where the text starts in the file, from 1
};

/// The texts of `bytes` (the contents of file `name`, named in messages).  A UTF-8 byte order
/// mark and a "\r" before each "\n" are dropped.  Throws DataError "NAME: line N ..." for a
/// NUL byte, bytes that are no UTF-8, and (jsonl) a line that is no JSON, a value that is no
/// string or object with a "text" string, an empty text; FileError (ErrorCode::FileEmpty) for
/// a file with no text at all.
std::vector<CorpusEntry> split_corpus(std::string_view bytes, CorpusFormat format,
                                      const std::string& name);

/// read_file(path), then split_corpus in `format` (guess_corpus_format when none).
std::vector<CorpusEntry> read_corpus(const std::string& path,
                                     std::optional<CorpusFormat> format = std::nullopt);

/// One text of a corpus encoded as the model sees it (encode_text), or, when it has more
/// tokens than `max_tokens` (or than the model's positions), its first max_tokens tokens, or
/// the positions' worth (`truncated` is then set).  max_tokens 0: no cut, so a text longer
/// than the model throws TextTooLong as encode_text does.  std::invalid_argument for an
/// empty text.
EncodedText encode_corpus_text(const OpenedModel& m, std::string_view text, std::int64_t max_tokens,
                               bool* truncated);

}  // namespace attnviz::models
