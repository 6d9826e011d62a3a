/* empty.c — libtk.so has no sources of its own: it is the TileKit archives
 * linked whole (cmake/packaging.cmake). CMake wants one source per library. */
typedef int tk_empty_translation_unit;
