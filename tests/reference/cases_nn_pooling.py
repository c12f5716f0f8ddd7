"""Reference cases for 1-D, 2-D and 3-D pooling (tests/nn/pooling_test.cpp): max pooling on distinct values
(so the argmax is unambiguous) and average / adaptive average pooling, over strides, padding,
dilation, ceil_mode and count_include_pad."""
import torch
import torch.nn.functional as F

from op_case import Case, S


def D(*shape):
    return S(*shape, domain="distinct")


CASES = {
    "max_pool2d_basic": Case(lambda x: F.max_pool2d(x, 2), [D(2, 3, 6, 6)]),
    "max_pool2d_stride_pad": Case(lambda x: F.max_pool2d(x, 3, 2, 1), [D(1, 2, 7, 7)]),
    "max_pool2d_overlap": Case(lambda x: F.max_pool2d(x, 3, 1), [D(1, 1, 5, 5)]),
    "max_pool2d_dilation": Case(lambda x: F.max_pool2d(x, 2, 1, 0, 2), [D(1, 1, 6, 5)]),
    "max_pool2d_dilation_pad": Case(lambda x: F.max_pool2d(x, 3, 2, 1, 2), [D(1, 2, 7, 6)]),
    "max_pool2d_ceil": Case(lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True), [D(1, 2, 6, 6)]),
    "max_pool2d_ceil_pad": Case(lambda x: F.max_pool2d(x, 2, 2, 1, ceil_mode=True),
                                [D(1, 1, 5, 4)]),
    "max_pool2d_rect": Case(lambda x: F.max_pool2d(x, (2, 3), (1, 2), (1, 0)), [D(2, 1, 5, 7)]),
    "max_pool2d_unbatched": Case(lambda x: F.max_pool2d(x, 2), [D(2, 5, 5)]),
    "avg_pool2d_basic": Case(lambda x: F.avg_pool2d(x, 2), [S(2, 3, 4, 6)]),
    "avg_pool2d_pad_include": Case(lambda x: F.avg_pool2d(x, 3, 2, 1), [S(1, 2, 5, 6)]),
    "avg_pool2d_pad_exclude": Case(lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
                                   [S(1, 2, 5, 6)]),
    "avg_pool2d_ceil": Case(lambda x: F.avg_pool2d(x, 3, 2, ceil_mode=True), [S(1, 1, 6, 7)]),
    "avg_pool2d_ceil_pad_include": Case(lambda x: F.avg_pool2d(x, 2, 2, 1, ceil_mode=True),
                                        [S(1, 2, 5, 4)]),
    "avg_pool2d_ceil_pad_exclude": Case(
        lambda x: F.avg_pool2d(x, 2, 2, 1, ceil_mode=True, count_include_pad=False),
        [S(1, 2, 5, 4)]),
    "avg_pool2d_rect": Case(lambda x: F.avg_pool2d(x, (3, 2), (1, 2), (1, 1)), [S(2, 1, 4, 5)]),
    "adaptive_avg_pool2d": Case(lambda x: F.adaptive_avg_pool2d(x, (3, 2)), [S(2, 3, 7, 5)]),
    "adaptive_avg_pool2d_global": Case(lambda x: F.adaptive_avg_pool2d(x, 1), [S(2, 3, 4, 5)]),
    "adaptive_avg_pool2d_grow": Case(lambda x: F.adaptive_avg_pool2d(x, (5, 4)), [S(1, 2, 3, 3)]),
    "adaptive_avg_pool2d_unbatched": Case(lambda x: F.adaptive_avg_pool2d(x, 2), [S(3, 5, 4)]),
    # Appended so the cases above keep their draws.
    "max_pool1d": Case(lambda x: F.max_pool1d(x, 3, 2, 1), [S(2, 3, 9)]),
    "max_pool1d_dilation_ceil_unbatched":
        Case(lambda x: F.max_pool1d(x, 2, 2, 0, 2, ceil_mode=True), [S(3, 8)]),
    "avg_pool1d": Case(lambda x: F.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
                       [S(2, 3, 8)]),
    "avg_pool1d_ceil": Case(lambda x: F.avg_pool1d(x, 2, ceil_mode=True), [S(1, 2, 7)]),
    "adaptive_avg_pool1d": Case(lambda x: F.adaptive_avg_pool1d(x, 3), [S(2, 3, 7)]),
    "adaptive_max_pool1d": Case(lambda x: F.adaptive_max_pool1d(x, 4), [S(2, 3, 7)]),
    "adaptive_max_pool2d": Case(lambda x: F.adaptive_max_pool2d(x, (3, 2)), [S(2, 3, 7, 5)]),
    "adaptive_max_pool2d_grow_unbatched":
        Case(lambda x: F.adaptive_max_pool2d(x, (5, 4)), [S(2, 3, 3)]),
    "max_pool3d_basic": Case(lambda x: F.max_pool3d(x, 2), [D(1, 2, 4, 4, 4)]),
    "max_pool3d_stride_pad_dilation":
        Case(lambda x: F.max_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 1, 0), (1, 2, 1)),
             [D(1, 1, 5, 6, 5)]),
    "max_pool3d_ceil_unbatched": Case(lambda x: F.max_pool3d(x, 2, 2, 1, ceil_mode=True),
                                      [D(2, 5, 4, 3)]),
    "avg_pool3d_basic": Case(lambda x: F.avg_pool3d(x, 2), [S(1, 2, 4, 4, 4)]),
    "avg_pool3d_pad_exclude": Case(lambda x: F.avg_pool3d(x, 3, 2, 1, count_include_pad=False),
                                   [S(1, 1, 5, 5, 6)]),
    "avg_pool3d_ceil_pad_include":
        Case(lambda x: F.avg_pool3d(x, (2, 3, 2), 2, (1, 1, 0), ceil_mode=True),
             [S(2, 1, 5, 4, 5)]),
    "adaptive_avg_pool3d": Case(lambda x: F.adaptive_avg_pool3d(x, (2, 3, 2)),
                                [S(1, 2, 5, 7, 4)]),
    "adaptive_avg_pool3d_grow_unbatched": Case(lambda x: F.adaptive_avg_pool3d(x, (4, 2, 3)),
                                               [S(2, 3, 4, 5)]),
    "adaptive_max_pool3d": Case(lambda x: F.adaptive_max_pool3d(x, (2, 3, 2)),
                                [S(1, 2, 5, 6, 4)]),
    "max_unpool1d": Case(lambda x: F.max_unpool1d(*F.max_pool1d(x, 2, return_indices=True), 2),
                         [D(2, 3, 8)]),
    "max_unpool2d_stride_pad_size": Case(
        lambda x: F.max_unpool2d(*F.max_pool2d(x, 2, 2, 1, return_indices=True), 2, 2, 1,
                                 output_size=(6, 7)),
        [D(1, 2, 6, 7)]),
    "max_unpool3d_unbatched": Case(
        lambda x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2), [D(2, 4, 4, 2)]),
    "lp_pool1d": Case(lambda x: F.lp_pool1d(x, 2, 3, 2), [S(2, 3, 9)]),
    "lp_pool2d_ceil": Case(lambda x: F.lp_pool2d(x, 3, (2, 3), ceil_mode=True),
                           [S(1, 2, 5, 7, domain="positive")]),
    "lp_pool3d": Case(lambda x: F.lp_pool3d(x, 1.5, 2, (1, 2, 2)), [S(1, 2, 3, 4, 4, domain="positive")]),
}
