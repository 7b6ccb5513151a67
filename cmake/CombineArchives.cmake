# cmake -DAR=ar -DSCRIPT=x.mri -DARCHIVE=lib.a -P CombineArchives.cmake: runs `ar -M` on an MRI script that puts
# several static libraries into one archive (libtilec.a). The old archive is removed first: `create` would
# otherwise keep members that are gone.
file(REMOVE ${ARCHIVE})
execute_process(COMMAND ${AR} -M INPUT_FILE ${SCRIPT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${AR} -M ${SCRIPT} failed: ${status}")
endif()
