# Finds dtl, the header-only diff template library (Debian: libdtl-dev), which ships no CMake
# package. Defines the imported target DTL::DTL. Trace synthesis aligns ranks' event sequences
# with it (whatif/extrap/synthalign).
find_path(DTL_INCLUDE_DIR NAMES dtl/dtl.hpp)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(DTL REQUIRED_VARS DTL_INCLUDE_DIR)
if(DTL_FOUND AND NOT TARGET DTL::DTL)
    add_library(DTL::DTL INTERFACE IMPORTED)
    set_target_properties(DTL::DTL PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${DTL_INCLUDE_DIR}")
endif()
mark_as_advanced(DTL_INCLUDE_DIR)
