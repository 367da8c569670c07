# The attention products (engine/kernels/attention.h): every variant the build machine can run.
attnviz_add_test(test_attention_kernels test_attention_kernels.cpp)
# The layer's and every model family's goldens again through each narrower variant of the
# kernels (ATTNVIZ_ISA forces one; one this CPU lacks is ignored, and the best one runs).
foreach(isa scalar sse2 avx2)
    foreach(suite test_attention test_models)
        add_test(NAME ${suite}_${isa} COMMAND ${suite})
        set_tests_properties(${suite}_${isa} PROPERTIES
            ENVIRONMENT "ATTNVIZ_ISA=${isa};ATTNVIZ_CLI=$<TARGET_FILE:attnviz>" TIMEOUT 600)
    endforeach()
endforeach()
