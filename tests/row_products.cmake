# One-row products with weights read as stored (engine/kernels/row_products.h): the float
# formats and GGUF's legacy blocks; the K-quants.
attnviz_add_test(test_row_products test_row_products.cpp)
attnviz_add_test(test_row_products_kquants test_row_products_kquants.cpp)
# The AVX2 kernels too, on a CPU that has AVX-512 (the choice is made once per process).
add_test(NAME test_row_products_avx2 COMMAND test_row_products)
set_tests_properties(test_row_products_avx2 PROPERTIES ENVIRONMENT "ATTNVIZ_ROW_PRODUCTS=avx2")
# The multi-row products (row_products_rows), also on the AVX2 kernels with the tiles that widen
# in registers (which Intel's cores do not pick by themselves).
attnviz_add_test(test_row_products_rows test_row_products_rows.cpp)
add_test(NAME test_row_products_rows_avx2 COMMAND test_row_products_rows)
set_tests_properties(test_row_products_rows_avx2 PROPERTIES ENVIRONMENT
                     "ATTNVIZ_ROW_PRODUCTS=avx2;ATTNVIZ_ROW_TILES=registers")
