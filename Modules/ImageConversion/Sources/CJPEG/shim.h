// libjpeg-turbo (the JPEG encoder) for ImageConversion's C helper target.
// jpeglib.h needs FILE and size_t declared before it is included.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
