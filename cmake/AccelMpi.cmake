# Decides whether the MPI backend is built (ACCEL_MPI = AUTO/ON/OFF). AUTO builds it when MPI's
# development files are found (Debian: libopenmpi-dev); the backend's sources are the files
# of accel/distributed/mpi/.
set(ACCEL_WITH_MPI OFF)
if(NOT ACCEL_MPI STREQUAL "OFF")
  # The C API from C++ (accel is a C++ project; the deprecated C++ bindings are not used).
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(ACCEL_WITH_MPI ON)
  elseif(ACCEL_MPI STREQUAL "ON")
    message(FATAL_ERROR "ACCEL_MPI=ON but no MPI was found (Debian: apt install libopenmpi-dev "
                        "openmpi-bin)")
  endif()
endif()
