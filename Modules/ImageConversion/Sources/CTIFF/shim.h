// libtiff (the TIFF decoder) for ImageConversion's C helper target and its tests.
#include <tiffio.h>
