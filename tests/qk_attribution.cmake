# QK attribution against tests/golden/models/qk_reference.py, and `attnviz qk`.
attnviz_add_test(test_qk_attribution test_qk_attribution.cpp)
