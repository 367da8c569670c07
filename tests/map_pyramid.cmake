# The full map's multi-resolution pyramid (engine/ops/map_pyramid.h): level 0 bit for bit, max
# and mean pooling with odd edges, the level a query picks.
attnviz_add_test(test_map_pyramid test_map_pyramid.cpp)
