# Finds SLEEF, the vectorized math library (Debian's libsleef-dev), which ships no CMake package
# of its own, and defines the imported target SLEEF::sleef. Installed with accel's package, whose
# config uses it too.
find_path(SLEEF_INCLUDE_DIR sleef.h)
find_library(SLEEF_LIBRARY sleef)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SLEEF REQUIRED_VARS SLEEF_LIBRARY SLEEF_INCLUDE_DIR)
mark_as_advanced(SLEEF_INCLUDE_DIR SLEEF_LIBRARY)
if(SLEEF_FOUND AND NOT TARGET SLEEF::sleef)
  add_library(SLEEF::sleef UNKNOWN IMPORTED)
  set_target_properties(SLEEF::sleef PROPERTIES IMPORTED_LOCATION "${SLEEF_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${SLEEF_INCLUDE_DIR}")
endif()
