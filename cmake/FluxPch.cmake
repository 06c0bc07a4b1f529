# Precompiled headers (FLUX_PCH; on by default with clang, see below). Most of the compile time of a clean build goes
# into parsing the same third-party headers again and again: nlohmann/json and fmt reach about
# 170 of the 300 translation units, gtest every test, CLI11 every command. Each group of targets
# below parses its headers once, in a small donor target, and every target of the group reuses
# that precompiled header (REUSE_FROM) instead of compiling its own.
#
# A precompiled header is only valid for translation units compiled with the same flags (GCC and
# clang refuse one built with a different -fPIC, for instance; CMake adds -Winvalid-pch, which
# -Werror turns into an error, so a mismatch fails the build rather than silently costing time).
# Hence one group per set of flags:
#   lib  the module libraries (position-independent when the Python module links them)
#   exe  the command line, the benchmarks and the fuzz targets
#   test the test executables (gtest's definitions)
#
# With ccache, set `sloppiness = pch_defines,time_macros` (ccache.conf or CCACHE_SLOPPINESS):
# without it ccache compiles every file that uses a precompiled header and caches none of them.
# The headers are force-included, so a file that forgets an #include of one of them still compiles
# here; configure with -DFLUX_PCH=OFF to check the includes.
# On by default with clang only: measured on the command line's files (docs/results/build.md),
# clang spent 18 % less CPU with them (it also instantiates the headers' templates once), GCC no
# less (its time goes to code generation at -O3; loading a 100 MB header into every file costs
# system time).
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(flux_pch_default ON)
else()
  set(flux_pch_default OFF)
endif()
option(FLUX_PCH "Precompile the heavy third-party headers (json, fmt, gtest, CLI11)" ${flux_pch_default})

# Standard headers most files use, then the third-party ones.
set(FLUX_PCH_COMMON_HEADERS
    <algorithm> <cmath> <cstdint> <filesystem> <fstream> <functional> <limits> <map> <memory>
    <numeric> <optional> <set> <span> <sstream> <stdexcept> <string> <string_view> <tuple>
    <unordered_map> <utility> <vector> <fmt/format.h> <nlohmann/json.hpp>)

if(FLUX_PCH AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  execute_process(COMMAND ccache --get-config sloppiness OUTPUT_VARIABLE sloppiness
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT sloppiness MATCHES "pch_defines" OR NOT sloppiness MATCHES "time_macros")
    message(WARNING "ccache caches no file compiled with a precompiled header unless its "
                    "sloppiness includes pch_defines,time_macros (now: '${sloppiness}'): "
                    "`ccache --set-config sloppiness=pch_defines,time_macros`, or -DFLUX_PCH=OFF")
  endif()
endif()

# flux_pch_group(NAME HEADERS header... [LINK target...] [PIC]): the donor target of a group; LINK
# names what the group's targets link (for include directories and definitions, which must match).
function(flux_pch_group name)
  if(NOT FLUX_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "PIC" "" "HEADERS;LINK" ${ARGN})
  set(source ${CMAKE_BINARY_DIR}/pch/${name}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "// Compiles the precompiled header of the ${name} group.\n")
  add_library(flux_pch_${name} OBJECT ${source})
  target_link_libraries(flux_pch_${name} PRIVATE ${ARG_LINK})
  target_precompile_headers(flux_pch_${name} PRIVATE ${ARG_HEADERS})
  if(ARG_PIC)
    set_target_properties(flux_pch_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # No modification times in the header: ccache can reuse it (and what was compiled with it).
    target_compile_options(flux_pch_${name} PRIVATE -Xclang -fno-pch-timestamp)
  endif()
endfunction()

# flux_use_pch(TARGET GROUP): TARGET's files start from GROUP's precompiled header.
function(flux_use_pch target group)
  if(FLUX_PCH)
    target_precompile_headers(${target} REUSE_FROM flux_pch_${group})
  endif()
endfunction()
