# `cmake --build <build> --target docs`: an HTML API reference in <build>/docs/html, made by
# Doxygen (Debian doxygen) from the headers' comments. The headers use plain `//` comments
# above each declaration; an input filter hands them to Doxygen as `///` documentation.
# Without Doxygen there is no docs target and nothing is said.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  return()
endif()
set(DOXYGEN_PROJECT_NAME accel)
set(DOXYGEN_PROJECT_BRIEF "C++20 deep-learning training library")
set(DOXYGEN_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/docs)
set(DOXYGEN_FILE_PATTERNS *.h *.md)
set(DOXYGEN_EXCLUDE_PATTERNS */cuda/* */kernels/common/* */kernels/cpu/*.h)
set(DOXYGEN_FILTER_PATTERNS "*.h=${CMAKE_CURRENT_LIST_DIR}/doxygen_comment_filter.sh")
set(DOXYGEN_FILTER_SOURCE_FILES NO)
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${PROJECT_SOURCE_DIR}/docs/api.md)
set(DOXYGEN_EXTRACT_ALL YES)
set(DOXYGEN_EXTRACT_STATIC YES)
set(DOXYGEN_JAVADOC_AUTOBRIEF YES)
set(DOXYGEN_GENERATE_TREEVIEW YES)
set(DOXYGEN_QUIET YES)
set(DOXYGEN_WARNINGS NO)
set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
set(DOXYGEN_WARN_LOGFILE ${PROJECT_BINARY_DIR}/docs/warnings.log)
doxygen_add_docs(docs ${PROJECT_SOURCE_DIR}/accel ${PROJECT_SOURCE_DIR}/docs
                 COMMENT "accel API reference: ${PROJECT_BINARY_DIR}/docs/html/index.html")
