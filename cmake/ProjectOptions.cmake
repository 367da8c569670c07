# Project-wide compile options, as an INTERFACE target every AttnViz target links.
#
# ATTNVIZ_NATIVE (default ON): compile for the build machine's instruction set: Eigen's
# code (and its GEMM, when neither oneDNN nor OpenBLAS is built in) is several times faster
# with AVX2/AVX-512 than with the SSE2 baseline.  Packagers switch it OFF for a portable
# binary; the matrix products (oneDNN, OpenBLAS) and the softmax kernels still pick the
# widest unit at run time (engine/kernels/gemm.h, engine/kernels/softmax.h).
option(ATTNVIZ_NATIVE "Optimise for the build machine's CPU (-march=native)" ON)
option(ATTNVIZ_WERROR "Treat compiler warnings as errors" OFF)
set(ATTNVIZ_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
option(ATTNVIZ_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
# ATTNVIZ_LLD (default ON): link with LLVM's lld when the compiler accepts -fuse-ld=lld (the
# Debian package lld, which `tools/setup.sh test` installs), else with the system's linker.
# Every test is its own program holding the engine and the window (57 MB under the
# sanitizers): measured on 2 cores, one link of ui_compare_test takes 2.9 s with GNU ld and
# 0.85 s with lld (gcc), 6.3 s and 1.8 s (clang, ASan), about 5 minutes of CI's 4 builds.
option(ATTNVIZ_LLD "Link with lld when it is installed" ON)
if(ATTNVIZ_LLD)
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-fuse-ld=lld" ATTNVIZ_HAVE_LLD)
    if(ATTNVIZ_HAVE_LLD)
        add_link_options(-fuse-ld=lld)
    endif()
endif()

add_library(attnviz_options INTERFACE)
target_compile_features(attnviz_options INTERFACE cxx_std_20)

add_library(attnviz_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(attnviz_warnings INTERFACE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
        -Wunused -Woverloaded-virtual -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        # GCC 12 reports -Wrestrict on plain std::string concatenation at -O3 (GCC bug 105329),
        # a false positive that would otherwise fail -Werror builds in unrelated code.
        target_compile_options(attnviz_warnings INTERFACE -Wno-restrict)
    endif()
    if(ATTNVIZ_WERROR)
        target_compile_options(attnviz_warnings INTERFACE -Werror)
    endif()
    if(ATTNVIZ_NATIVE)
        target_compile_options(attnviz_options INTERFACE -march=native)
    endif()
    if(ATTNVIZ_SANITIZE)
        target_compile_options(attnviz_options INTERFACE
            -fsanitize=${ATTNVIZ_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
        target_link_options(attnviz_options INTERFACE -fsanitize=${ATTNVIZ_SANITIZE})
        # With AddressSanitizer, UBSan's object-size check (a read or write past the object
        # __builtin_object_size can see) only repeats what ASan finds at run time, and it was
        # the costliest UBSan check to compile: circuits.cpp (clang 14, -O1) took 29 CPU-s with
        # it and 24 without.
        if(ATTNVIZ_SANITIZE MATCHES "address" AND ATTNVIZ_SANITIZE MATCHES "undefined")
            target_compile_options(attnviz_options INTERFACE -fno-sanitize=object-size)
        endif()
    endif()
endif()
