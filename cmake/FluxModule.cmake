# flux_module(NAME DEPS dep...): a static library from every .cpp in this folder.
function(flux_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(flux_${name} STATIC ${sources})
  target_include_directories(flux_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(flux_${name} PUBLIC ${ARG_DEPS})
endfunction()
