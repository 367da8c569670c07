# attnviz_gzip(<input> <output>): a build step that compresses <input> into <output> the way
# Debian's dh_compress does (gzip -9n: no file name, no time stamp, so the package is
# reproducible).  Debian requires it of man pages and changelogs (lintian:
# uncompressed-manual-page, no-changelog); man and zless read the result anywhere.
find_program(ATTNVIZ_GZIP gzip REQUIRED)
function(attnviz_gzip input output)
    get_filename_component(name ${output} NAME)
    add_custom_command(OUTPUT ${output}
        COMMAND ${ATTNVIZ_GZIP} -9n --stdout ${input} > ${output}
        DEPENDS ${input}
        COMMENT "Compressing ${name}")
endfunction()
