# Finds the OTF2 library (Debian: libotf2-trace-dev), which ships no CMake package.
# Defines the imported target OTF2::OTF2.
find_path(OTF2_INCLUDE_DIR NAMES otf2/otf2.h)
find_library(OTF2_LIBRARY NAMES otf2)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OTF2 REQUIRED_VARS OTF2_LIBRARY OTF2_INCLUDE_DIR)
if(OTF2_FOUND AND NOT TARGET OTF2::OTF2)
    add_library(OTF2::OTF2 UNKNOWN IMPORTED)
    set_target_properties(OTF2::OTF2 PROPERTIES
        IMPORTED_LOCATION "${OTF2_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${OTF2_INCLUDE_DIR}")
endif()
mark_as_advanced(OTF2_INCLUDE_DIR OTF2_LIBRARY)
