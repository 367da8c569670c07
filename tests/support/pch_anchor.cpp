// The one source of the targets that build the tests' precompiled headers
// (tests/CMakeLists.txt): a target needs a file to compile, and this one adds nothing.
