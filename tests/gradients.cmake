# The backward pass, attribution patching and input saliency (engine/models/model.h
# Model::gradients, engine/models/gradient_attribution.h) against torch autograd.
attnviz_add_test(test_gradients test_gradients.cpp)
