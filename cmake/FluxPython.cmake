# Finds what the fluxocs Python module needs and turns FLUX_PYTHON off (with a message) when
# something is missing. Debian's interpreter comes first: it is the one whose numpy, pytest and
# matplotlib come from apt, whereas a `python3` earlier on PATH (pyenv, venv) may have none of them.
if(NOT FLUX_PYTHON)
  return()
endif()
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the fluxocs module")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module)
if(Python3_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
if(NOT Python3_FOUND OR NOT pybind11_FOUND)
  message(STATUS "fluxocs Python module skipped: needs python3-dev and pybind11-dev")
  set(FLUX_PYTHON OFF)
  return()
endif()
