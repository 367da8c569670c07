# Composition and copying scores (engine/models/circuits.h), and `attnviz circuits`.
attnviz_add_test(test_circuits test_circuits.cpp)
