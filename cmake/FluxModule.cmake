# flux_module(NAME DEPS dep... [EXCLUDE file.cpp...]): a static library from every .cpp in this
# folder but the excluded ones (built into a separate library by the folder's CMakeLists.txt).
function(flux_module name)
  cmake_parse_arguments(ARG "" "" "DEPS;EXCLUDE" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  foreach(excluded IN LISTS ARG_EXCLUDE)
    list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/${excluded})
  endforeach()
  add_library(flux_${name} STATIC ${sources})
  target_include_directories(flux_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(flux_${name} PUBLIC ${ARG_DEPS})
  flux_use_pch(flux_${name} lib)
endfunction()
