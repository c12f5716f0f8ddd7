# CTest driver of the packaging tests (cmake -P). MODE=package: `cmake --install` the build
# tree into a fresh prefix, then configure, build and run the consumer with find_package(accel).
# MODE=subdirectory: the consumer pulls accel's source tree in with add_subdirectory.
# The consumer is built with the same generator, compiler, launcher and accel options.
foreach(var MODE ACCEL_SOURCE_DIR ACCEL_BINARY_DIR WORK_DIR GENERATOR CXX_COMPILER BUILD_TYPE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGV}")
    message(FATAL_ERROR "failed (${status}): ${command}")
  endif()
endfunction()

set(consumer_build ${WORK_DIR}/consumer-build)
set(configure_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                   -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}
       -DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER})
endif()

if(MODE STREQUAL "package")
  # Fresh every run: a stale prefix could hide a file the install forgot.
  file(REMOVE_RECURSE ${WORK_DIR})
  run(${CMAKE_COMMAND} --install ${ACCEL_BINARY_DIR} --prefix ${WORK_DIR}/prefix)
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
elseif(MODE STREQUAL "subdirectory")
  # Kept between runs so that rebuilding accel inside the consumer stays incremental.
  list(APPEND configure_args -DACCEL_SOURCE_DIR=${ACCEL_SOURCE_DIR} -DACCEL_CUDA=${ACCEL_CUDA}
       -DACCEL_NATIVE=${ACCEL_NATIVE})
else()
  message(FATAL_ERROR "run_consumer.cmake: MODE must be package or subdirectory, not ${MODE}")
endif()

run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer -B ${consumer_build} ${configure_args})
# As parallel as the outer build: the subproject compiles all of accel again.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
run(${CMAKE_COMMAND} --build ${consumer_build} --parallel ${cores})
run(${consumer_build}/consumer)
