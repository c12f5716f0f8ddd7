"""grid_sample (every mode, padding mode and align_corners, 4-D and 5-D) and affine_grid.

Grid values are standard normal, so about a third fall outside [-1, 1]; the reflection cases
scale them further so that locations reflect more than once. Names match
tests/nn/grid_sample_test.cpp.
"""
import torch.nn.functional as F

from op_case import Case, S


def sample(mode, padding, align_corners, scale=1.0):
    return lambda x, g: F.grid_sample(x, g * scale, mode=mode, padding_mode=padding,
                                      align_corners=align_corners)


def affine(size, align_corners):
    return lambda theta: F.affine_grid(theta, size, align_corners=align_corners)


IMAGE, GRID = S(2, 3, 4, 5), S(2, 3, 6, 2)
VOLUME, GRID_3D = S(2, 2, 3, 4, 5), S(2, 2, 3, 4, 3)

CASES = {
    "grid_sample_bilinear_zeros": Case(sample("bilinear", "zeros", False), [IMAGE, GRID]),
    "grid_sample_bilinear_zeros_align": Case(sample("bilinear", "zeros", True), [IMAGE, GRID]),
    "grid_sample_bilinear_border": Case(sample("bilinear", "border", False, 1.5), [IMAGE, GRID]),
    "grid_sample_bilinear_border_align":
        Case(sample("bilinear", "border", True, 1.5), [IMAGE, GRID]),
    "grid_sample_bilinear_reflection":
        Case(sample("bilinear", "reflection", False, 3.0), [IMAGE, GRID]),
    "grid_sample_bilinear_reflection_align":
        Case(sample("bilinear", "reflection", True, 3.0), [IMAGE, GRID]),
    "grid_sample_nearest_zeros": Case(sample("nearest", "zeros", False), [IMAGE, GRID]),
    "grid_sample_nearest_border_align":
        Case(sample("nearest", "border", True, 1.5), [IMAGE, GRID]),
    "grid_sample_nearest_reflection":
        Case(sample("nearest", "reflection", False, 3.0), [IMAGE, GRID]),
    "grid_sample_bicubic_zeros": Case(sample("bicubic", "zeros", False), [IMAGE, GRID]),
    "grid_sample_bicubic_zeros_align": Case(sample("bicubic", "zeros", True), [IMAGE, GRID]),
    "grid_sample_bicubic_border": Case(sample("bicubic", "border", False, 1.5), [IMAGE, GRID]),
    "grid_sample_bicubic_reflection":
        Case(sample("bicubic", "reflection", False, 2.5), [IMAGE, GRID]),
    "grid_sample_bicubic_reflection_align":
        Case(sample("bicubic", "reflection", True, 2.5), [IMAGE, GRID]),
    "grid_sample_trilinear_zeros": Case(sample("bilinear", "zeros", False), [VOLUME, GRID_3D]),
    "grid_sample_trilinear_border_align":
        Case(sample("bilinear", "border", True, 1.5), [VOLUME, GRID_3D]),
    "grid_sample_trilinear_reflection":
        Case(sample("bilinear", "reflection", False, 2.5), [VOLUME, GRID_3D]),
    "grid_sample_nearest_3d": Case(sample("nearest", "zeros", True), [VOLUME, GRID_3D]),
    # One row with align_corners: reflection maps every y onto it.
    "grid_sample_single_row_reflection_align":
        Case(sample("bilinear", "reflection", True, 2.0), [S(1, 2, 1, 4), S(1, 3, 3, 2)]),
    "affine_grid_2d": Case(affine((2, 3, 4, 5), False), [S(2, 2, 3)]),
    "affine_grid_2d_align": Case(affine((2, 1, 3, 4), True), [S(2, 2, 3)]),
    "affine_grid_3d": Case(affine((1, 2, 3, 4, 5), False), [S(1, 3, 4)]),
    "affine_grid_3d_align": Case(affine((2, 1, 2, 3, 2), True), [S(2, 3, 4)]),
    "affine_grid_single_column": Case(affine((1, 1, 3, 1), False), [S(1, 2, 3)]),
    # A spatial transformer: the affine grid of theta samples the image.
    "spatial_transformer":
        Case(lambda x, theta: F.grid_sample(x, F.affine_grid(theta, x.shape, align_corners=False),
                                            align_corners=False),
             [S(2, 3, 5, 6), S(2, 2, 3)]),
}
