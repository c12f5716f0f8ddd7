"""Reference cases for the convolutions (tests/nn/conv_test.cpp): F.conv1d / F.conv2d /
F.conv3d, the transposed ones, padding modes, and F.unfold / F.fold, with weight and bias as
inputs, so the fixture holds their gradients too. Shapes stay tiny because finite differences
run two forwards per input element."""
import torch.nn.functional as F

from op_case import Case, S

CASES = {
    "conv2d_basic": Case(lambda x, w, b: F.conv2d(x, w, b), [S(2, 2, 4, 4), S(3, 2, 3, 3), S(3)]),
    "conv2d_stride_padding": Case(lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1),
                                  [S(2, 2, 5, 5), S(3, 2, 3, 3), S(3)]),
    "conv2d_asymmetric": Case(lambda x, w, b: F.conv2d(x, w, b, stride=(1, 2), padding=(2, 1)),
                              [S(1, 2, 5, 6), S(2, 2, 3, 2), S(2)]),
    "conv2d_dilation": Case(lambda x, w, b: F.conv2d(x, w, b, padding=1, dilation=2),
                            [S(1, 2, 6, 5), S(2, 2, 3, 3), S(2)]),
    "conv2d_groups": Case(lambda x, w, b: F.conv2d(x, w, b, groups=2),
                          [S(2, 4, 4, 4), S(6, 2, 2, 2), S(6)]),
    "conv2d_depthwise": Case(lambda x, w, b: F.conv2d(x, w, b, padding=1, groups=3),
                             [S(1, 3, 4, 4), S(3, 1, 3, 3), S(3)]),
    "conv2d_no_bias": Case(lambda x, w: F.conv2d(x, w, stride=2), [S(2, 3, 5, 5), S(2, 3, 2, 2)]),
    "conv2d_same_even": Case(lambda x, w, b: F.conv2d(x, w, b, padding="same"),
                             [S(1, 2, 5, 4), S(2, 2, 4, 2), S(2)]),
    "conv2d_same_dilated": Case(lambda x, w: F.conv2d(x, w, padding="same", dilation=2),
                                [S(1, 1, 5, 5), S(2, 1, 2, 3)]),
    "conv2d_valid": Case(lambda x, w: F.conv2d(x, w, padding="valid"),
                         [S(1, 2, 4, 5), S(1, 2, 3, 3)]),
    "conv2d_unbatched": Case(lambda x, w, b: F.conv2d(x, w, b, padding=1),
                             [S(2, 3, 3), S(2, 2, 3, 3), S(2)]),
    "conv2d_odd_sizes": Case(lambda x, w, b: F.conv2d(x, w, b, stride=(3, 2), padding=(1, 2),
                                                      dilation=(2, 1)),
                             [S(3, 1, 7, 5), S(2, 1, 3, 3), S(2)]),
    "conv1d_basic": Case(lambda x, w, b: F.conv1d(x, w, b), [S(2, 3, 7), S(4, 3, 3), S(4)]),
    "conv1d_stride_padding_dilation": Case(
        lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, dilation=2),
        [S(2, 2, 9), S(3, 2, 3), S(3)]),
    "conv1d_groups_no_bias": Case(lambda x, w: F.conv1d(x, w, groups=2), [S(1, 4, 6), S(4, 2, 2)]),
    "conv1d_same_even": Case(lambda x, w, b: F.conv1d(x, w, b, padding="same"),
                             [S(2, 2, 6), S(2, 2, 4), S(2)]),
    "conv_transpose2d_basic": Case(lambda x, w, b: F.conv_transpose2d(x, w, b),
                                   [S(2, 2, 3, 3), S(2, 3, 2, 2), S(3)]),
    "conv_transpose2d_strided": Case(
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
        [S(1, 2, 3, 4), S(2, 2, 3, 3), S(2)]),
    "conv_transpose2d_groups_dilation": Case(
        lambda x, w: F.conv_transpose2d(x, w, stride=(2, 1), padding=(0, 1), groups=2,
                                        dilation=(1, 2)),
        [S(1, 4, 3, 3), S(4, 1, 2, 3)]),
    "conv_transpose2d_unbatched": Case(lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2),
                                       [S(2, 2, 3), S(2, 1, 3, 2), S(1)]),
    "conv_transpose1d_basic": Case(lambda x, w, b: F.conv_transpose1d(x, w, b),
                                   [S(2, 2, 5), S(2, 3, 3), S(3)]),
    "conv_transpose1d_strided_groups": Case(
        lambda x, w: F.conv_transpose1d(x, w, stride=3, padding=1, output_padding=2, groups=2,
                                        dilation=2),
        [S(2, 4, 4), S(4, 1, 3)]),
    "conv_transpose1d_unbatched": Case(lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2),
                                       [S(2, 3), S(2, 2, 2), S(2)]),
    "conv2d_reflect_padding": Case(
        lambda x, w, b: F.conv2d(F.pad(x, (2, 2, 1, 1), mode="reflect"), w, b),
        [S(2, 2, 4, 5), S(3, 2, 3, 3), S(3)]),
    "conv2d_circular_same": Case(
        lambda x, w: F.conv2d(F.pad(x, (1, 2, 0, 1), mode="circular"), w),
        [S(1, 2, 4, 4), S(2, 2, 2, 4)]),
    "conv1d_replicate_padding": Case(
        lambda x, w, b: F.conv1d(F.pad(x, (2, 2), mode="replicate"), w, b, stride=2),
        [S(2, 2, 6), S(3, 2, 3), S(3)]),
    "unfold_basic": Case(lambda x: F.unfold(x, 2), [S(2, 3, 4, 5)]),
    "unfold_all_options": Case(
        lambda x: F.unfold(x, (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 3)),
        [S(1, 2, 6, 7)]),
    "unfold_unbatched": Case(lambda x: F.unfold(x, 3, padding=1), [S(2, 4, 4)]),
    "fold_basic": Case(lambda x: F.fold(x, (4, 5), 2), [S(2, 12, 12)]),
    "fold_all_options": Case(
        lambda x: F.fold(x, (6, 7), (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 3)),
        [S(1, 12, 9)]),
    "fold_unbatched": Case(lambda x: F.fold(x, 4, 2), [S(8, 9)]),
    "conv3d_basic": Case(lambda x, w, b: F.conv3d(x, w, b),
                         [S(2, 2, 4, 4, 4), S(3, 2, 2, 3, 3), S(3)]),
    "conv3d_stride_padding_dilation": Case(
        lambda x, w, b: F.conv3d(x, w, b, stride=(2, 1, 2), padding=(1, 2, 0),
                                 dilation=(2, 1, 1)),
        [S(1, 2, 6, 5, 5), S(2, 2, 3, 3, 2), S(2)]),
    "conv3d_groups_no_bias": Case(lambda x, w: F.conv3d(x, w, groups=2),
                                  [S(1, 4, 3, 4, 4), S(4, 2, 2, 2, 2)]),
    "conv3d_same_even": Case(lambda x, w, b: F.conv3d(x, w, b, padding="same"),
                             [S(1, 2, 4, 4, 3), S(2, 2, 2, 3, 2), S(2)]),
    "conv3d_unbatched": Case(lambda x, w, b: F.conv3d(x, w, b, padding=1),
                             [S(2, 3, 3, 3), S(2, 2, 3, 3, 3), S(2)]),
    "conv3d_replicate_padding": Case(
        lambda x, w, b: F.conv3d(F.pad(x, (1, 1, 1, 1, 1, 1), mode="replicate"), w, b),
        [S(1, 2, 3, 4, 4), S(2, 2, 3, 3, 3), S(2)]),
    "conv_transpose3d_basic": Case(lambda x, w, b: F.conv_transpose3d(x, w, b),
                                   [S(1, 2, 3, 3, 3), S(2, 3, 2, 2, 2), S(3)]),
    "conv_transpose3d_strided": Case(
        lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2, padding=1, output_padding=1),
        [S(1, 2, 3, 2, 3), S(2, 2, 3, 3, 3), S(2)]),
    "conv_transpose3d_groups_dilation": Case(
        lambda x, w: F.conv_transpose3d(x, w, stride=(2, 1, 1), padding=(0, 1, 0),
                                        output_padding=(1, 0, 1), groups=2, dilation=(2, 1, 2)),
        [S(1, 4, 3, 3, 3), S(4, 1, 2, 3, 2)]),
    "conv_transpose3d_unbatched": Case(lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2),
                                       [S(2, 2, 3, 2), S(2, 1, 2, 2, 2), S(1)]),
}
