target_sources(attnviz_engine PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/config.cpp
    ${CMAKE_CURRENT_LIST_DIR}/flops.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gguf_model.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gguf_tokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/head_atlas.cpp
    ${CMAKE_CURRENT_LIST_DIR}/head_statistics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/local_models.cpp
    ${CMAKE_CURRENT_LIST_DIR}/model_folder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pass_plan.cpp
    ${CMAKE_CURRENT_LIST_DIR}/predictions.cpp
    ${CMAKE_CURRENT_LIST_DIR}/token_trace.cpp
    ${CMAKE_CURRENT_LIST_DIR}/token_views.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformer_forward.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformer_weights.cpp
    ${CMAKE_CURRENT_LIST_DIR}/generation.cpp
    ${CMAKE_CURRENT_LIST_DIR}/weight_layout.cpp)
