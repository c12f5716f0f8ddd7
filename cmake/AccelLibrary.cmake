# The accel static library (target accel::accel) and its installed CMake package.
include(GNUInstallDirs)  # before CMAKE_INSTALL_INCLUDEDIR is used in the include directories
file(GLOB_RECURSE ACCEL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/accel/*.cpp)
file(GLOB_RECURSE ACCEL_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/accel/*/cuda/*.cpp
     ${PROJECT_SOURCE_DIR}/accel/*/cuda/*.cu)
file(GLOB ACCEL_MPI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/accel/distributed/mpi/*.cpp)
list(REMOVE_ITEM ACCEL_SOURCES ${ACCEL_CUDA_SOURCES} ${ACCEL_MPI_SOURCES})

add_library(accel STATIC ${ACCEL_SOURCES})
add_library(accel::accel ALIAS accel)
target_compile_features(accel PUBLIC cxx_std_20)
target_include_directories(accel PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(accel PUBLIC fmt::fmt Threads::Threads OpenMP::OpenMP_CXX
                            PRIVATE Eigen3::Eigen ZLIB::ZLIB nlohmann_json::nlohmann_json SLEEF::sleef)
target_compile_options(accel PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
# accel never enables floating-point traps and never reads errno after a math call. Saying so
# lets the compiler evaluate both sides of a select (a loop-invariant option such as Nesterov
# or weight decay in an optimizer update) and vectorize the loop; no result changes (these are
# not -ffast-math's value-changing options).
target_compile_options(accel PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno -fno-trapping-math>)
if(ACCEL_NATIVE)
  target_compile_options(accel PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
if(ACCEL_WITH_CUDA)
  target_sources(accel PRIVATE ${ACCEL_CUDA_SOURCES})
  target_compile_definitions(accel PUBLIC ACCEL_WITH_CUDA)
  # C++20 is passed to nvcc directly: CMake 3.25 does not know nvcc's flag for CUDA_STANDARD
  # 20. Relaxed constexpr lets device code use std::array and the shared constexpr helpers.
  # nvcc's front end cannot evaluate libfmt's consteval format-string checks: in .cu files
  # format strings are checked at run time instead (same output).
  target_compile_options(accel PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20
                                       --expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra
                                       -DFMT_CONSTEVAL= -DFMT_USE_CONSTEXPR=1>)
  set_target_properties(accel PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  # cuBLAS and cuBLASLt are loaded on first use (kernels/cuda/cublas_library.cpp), not linked:
  # linking them costs every program ~0.12 s and ~200 MB at start-up, GPU or not. NCCL too
  # (distributed/cuda/nccl_library.cpp; its header comes with the toolkit's).
  target_link_libraries(accel PUBLIC CUDA::cudart_static ${CMAKE_DL_LIBS})
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/accel/kernels/cuda/cublas_library.cpp
                      ${PROJECT_SOURCE_DIR}/accel/distributed/cuda/nccl_library.cpp
               APPEND PROPERTY
               COMPILE_DEFINITIONS ACCEL_CUDA_LIBRARY_DIR="${CUDAToolkit_LIBRARY_DIR}")
endif()
if(ACCEL_WITH_MPI)
  target_sources(accel PRIVATE ${ACCEL_MPI_SOURCES})
  target_compile_definitions(accel PRIVATE ACCEL_WITH_MPI)
  target_link_libraries(accel PUBLIC MPI::MPI_CXX)
endif()
if(ACCEL_SANITIZE OR ACCEL_FUZZ)
  # AddressSanitizer must see every allocation's lifetime: no caching in accel's allocators.
  # (ThreadSanitizer keeps the caches: their cross-thread reuse is what it has to check.)
  target_compile_definitions(accel PRIVATE ACCEL_ALLOCATOR_BYPASS)
endif()
set_target_properties(accel PROPERTIES POSITION_INDEPENDENT_CODE ON)

include(CMakePackageConfigHelpers)
install(TARGETS accel EXPORT accelTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/accel DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(EXPORT accelTargets NAMESPACE accel:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/accel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/accelConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/accelConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/accel)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/accelConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/accelConfig.cmake ${PROJECT_BINARY_DIR}/accelConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindSLEEF.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/accel)
