// The tokenizer a GGUF file carries in its metadata (tokenizer.ggml.*), built on the engine's
// Hugging Face tokenizer stages (engine/text/hf): the metadata is written out as the
// tokenizer.json Hugging Face's converters make for the same vocabulary, and read by
// HfTokenizer, so there is one tokenizer implementation.  The vocabulary and merges (150,000
// of each for Qwen) are handed to the reader as the lists they are in the file rather than
// written into that text and parsed again (HfTokenizer's ModelLists); gguf_tokenizer_json
// gives the whole text, and the same tokenizer (tests/test_gguf.cpp).
//
//   tokenizer.ggml.model "gpt2"   byte-level BPE with tokenizer.ggml.merges; the
//                                  pre-tokenizer named by tokenizer.ggml.pre: "gpt-2",
//                                  "llama-bpe" (Llama 3), "qwen2" (with NFC, as Qwen's
//                                  tokenizer.json), "default" (llama.cpp's default splits)
//   tokenizer.ggml.model "llama"  SentencePiece BPE with scores and byte fallback, as
//                                  LlamaTokenizerFast (merges derived from the scores as
//                                  transformers' SentencePieceExtractor derives them)
//   tokenizer.ggml.model "bert"   WordPiece (llama.cpp writes word starts as "▁w" and
//                                  continuations as "w"; they are read back as "w", "##w")
//
// token_type: control tokens (3) become special added tokens, user-defined ones (4) plain
// added tokens.  bos/eos/unknown/padding ids, add_bos_token/add_eos_token (llama.cpp's
// defaults when absent: BOS for SentencePiece and llama-bpe, [CLS]/[SEP] for BERT).
// Anything else (another model or pre-tokenizer name, a merge of unknown tokens, ids out of
// range) is a DataError naming the file and the value, never guessed.
#pragma once

#include <string>

#include "engine/io/gguf.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace attnviz::models {

/// The tokenizer.json text equivalent to the file's tokenizer metadata.
std::string gguf_tokenizer_json(const io::GgufFile& file);

/// The file's tokenizer.
text::HfTokenizer gguf_tokenizer(const io::GgufFile& file);

}  // namespace attnviz::models
