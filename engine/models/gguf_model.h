// A GGUF model file (llama.cpp, ollama, LM Studio) as one of the engine's transformers:
// general.architecture llama, qwen2, qwen3 or gpt2, llama.cpp's tensor names mapped onto the
// Hugging Face names the Transformer reads, and its hyper-parameters ({arch}.block_count,
// .embedding_length, .attention.head_count, ...) read into a ModelConfig through the same
// checks as a config.json.  llama.cpp's converter permutes the Q and K rows of `llama` models
// for its own rotary pairing; that is undone here, so the maps equal those of the Hugging
// Face checkpoint the file was converted from (qwen2/qwen3 are stored unpermuted).
//
// Quantized weights stay in the file's blocks: a pass dequantizes them a block of rows at a time
// as a layer runs (engine/io/gguf_quants.h), and a generation step multiplies them as stored
// (engine/kernels/row_products.h).  F32, F16 and BF16 files are kept as float32 like a Hugging
// Face checkpoint's when the weight cache holds them.
#pragma once

#include <memory>
#include <string>

#include "engine/io/gguf.h"
#include "engine/models/config.h"
#include "engine/models/model.h"

namespace attnviz::models {

/// The configuration a GGUF file's metadata and tensors describe.  DataError naming the file
/// and the key for an unsupported architecture, a missing or mistyped key, partial rotary
/// dimensions, RoPE scaling, and every check parse_config makes.
ModelConfig gguf_model_config(const io::GgufFile& file);

/// The model of an opened GGUF file; DataError naming the file and the tensor for a tensor of
/// a type that cannot be read, one the architecture does not have, or a missing one.
std::unique_ptr<Model> load_gguf_model(const io::GgufFile& file);

/// True for a path that names a GGUF file: a regular file ending in ".gguf" or starting with
/// the magic "GGUF" (ollama's blobs have no extension).
bool is_gguf_file(const std::string& path);

}  // namespace attnviz::models
