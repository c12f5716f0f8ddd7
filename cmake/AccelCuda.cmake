# Decides whether the CUDA backend is built (ACCEL_CUDA = AUTO/ON/OFF). AUTO builds it when
# a CUDA toolkit is found, and then enables CUDA as a language for the kernels in */cuda/*.cu.
# The backend links only the CUDA runtime and libraries (never libcuda), so the library builds
# and runs on machines without a GPU or driver.
set(ACCEL_WITH_CUDA OFF)
if(NOT ACCEL_CUDA STREQUAL "OFF")
  if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(ACCEL_WITH_CUDA ON)
    # Recorded in the installed package so that consumers find the same toolkit.
    cmake_path(GET CUDAToolkit_BIN_DIR PARENT_PATH ACCEL_CUDA_TOOLKIT_ROOT)
    if(NOT CMAKE_CUDA_COMPILER)
      set(CMAKE_CUDA_COMPILER ${CUDAToolkit_NVCC_EXECUTABLE})
    endif()
    # A100 (80) and H100/H200 (90), with PTX for newer GPUs. Never "native": it fails on
    # machines without a GPU, where CI builds.
    set(CMAKE_CUDA_ARCHITECTURES "80;90" CACHE STRING "CUDA architectures to compile for")
    enable_language(CUDA)
  elseif(ACCEL_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ACCEL_CUDA=ON but no CUDA toolkit was found")
  endif()
endif()
if(ACCEL_WITH_CUDA)
  # Said plainly until scripts/gpu-check.sh has passed on a GPU.
  message(STATUS "accel: building the CUDA backend (experimental: not yet run on a GPU)")
endif()
