# gguf_bench: a Qwen2.5-0.5B-shaped GGUF (Q4_K_M and Q8_0) against its BF16 safetensors in one
# run, opening and forward passes kept and streamed (files from bench/gguf_checkpoint.py).
add_executable(gguf_bench gguf_bench.cpp)
target_link_libraries(gguf_bench PRIVATE attnviz_engine attnviz_warnings)
