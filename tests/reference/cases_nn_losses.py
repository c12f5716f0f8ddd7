"""Reference cases for the functional losses (tests/nn/losses_test.cpp).

Class-index targets are int64 inputs; class weights and pos_weight are float inputs the
lambdas detach (PyTorch gives them no gradient, so the fixture stores none). BCE inputs are
drawn in [0.5, 2] and scaled by 0.4 into (0, 1) by both sides.
"""
import torch
import torch.nn.functional as F

from op_case import Case, S

N, C = 4, 5
LOGITS = S(N, C)
LABELS = S(N, domain=f"int:0:{C}")
WEIGHT = S(C, domain="positive")
SPATIAL = S(2, 3, 4, 2)
SPATIAL_LABELS = S(2, 4, 2, domain="int:0:3")


def ce(**kw):
    return lambda x, t: F.cross_entropy(x, t, **kw)


def ce_w(**kw):
    return lambda x, t, w: F.cross_entropy(x, t, weight=w.detach(), **kw)


def nll_w(**kw):
    return lambda x, t, w: F.nll_loss(x, t, weight=w.detach(), **kw)


def bce(**kw):
    return lambda x, y: F.binary_cross_entropy(x * 0.4, y * 0.4, **kw)


CASES = {
    "ce_mean": Case(ce(), [LOGITS, LABELS]),
    "ce_sum": Case(ce(reduction="sum"), [LOGITS, LABELS]),
    "ce_none": Case(ce(reduction="none"), [LOGITS, LABELS]),
    "ce_weight_mean": Case(ce_w(), [LOGITS, LABELS, WEIGHT]),
    "ce_weight_sum": Case(ce_w(reduction="sum"), [LOGITS, LABELS, WEIGHT]),
    "ce_weight_none": Case(ce_w(reduction="none"), [LOGITS, LABELS, WEIGHT]),
    "ce_ignore_mean": Case(ce(ignore_index=2), [S(8, C), S(8, domain=f"int:0:{C}")]),
    "ce_ignore_negative_none": Case(ce(ignore_index=-1, reduction="none"),
                                    [S(8, C), S(8, domain=f"int:-1:{C}")]),
    "ce_weight_ignore_mean": Case(ce_w(ignore_index=2),
                                  [S(8, C), S(8, domain=f"int:0:{C}"), WEIGHT]),
    "ce_smoothing_mean": Case(ce(label_smoothing=0.1), [LOGITS, LABELS]),
    "ce_smoothing_sum": Case(ce(label_smoothing=0.25, reduction="sum"), [LOGITS, LABELS]),
    "ce_smoothing_weight_ignore_mean": Case(ce_w(label_smoothing=0.2, ignore_index=1),
                                            [S(8, C), S(8, domain=f"int:0:{C}"), WEIGHT]),
    "ce_smoothing_weight_ignore_none": Case(ce_w(label_smoothing=0.2, ignore_index=1,
                                                 reduction="none"),
                                            [S(8, C), S(8, domain=f"int:0:{C}"), WEIGHT]),
    "ce_spatial_mean": Case(ce(), [SPATIAL, SPATIAL_LABELS]),
    "ce_spatial_weight_smoothing_ignore_none": Case(
        ce_w(label_smoothing=0.1, ignore_index=0, reduction="none"),
        [SPATIAL, SPATIAL_LABELS, S(3, domain="positive")]),
    "ce_unbatched": Case(ce(), [S(C), S(domain=f"int:0:{C}")]),
    "ce_probs_mean": Case(ce(), [LOGITS, S(N, C, domain="positive")]),
    "ce_probs_weight_smoothing_none": Case(
        lambda x, p, w: F.cross_entropy(x, p, weight=w.detach(), label_smoothing=0.1,
                                        reduction="none"),
        [LOGITS, S(N, C, domain="positive"), WEIGHT]),
    "ce_probs_spatial_sum": Case(ce(reduction="sum"), [SPATIAL, S(2, 3, 4, 2, domain="positive")]),
    "nll_mean": Case(lambda x, t: F.nll_loss(x, t), [LOGITS, LABELS]),
    "nll_sum": Case(lambda x, t: F.nll_loss(x, t, reduction="sum"), [LOGITS, LABELS]),
    "nll_weight_ignore_mean": Case(nll_w(ignore_index=3),
                                   [S(8, C), S(8, domain=f"int:0:{C}"), WEIGHT]),
    "nll_weight_spatial_none": Case(nll_w(reduction="none"),
                                    [SPATIAL, SPATIAL_LABELS, S(3, domain="positive")]),
    "mse_mean": Case(F.mse_loss, [S(3, 4), S(3, 4)]),
    "mse_sum": Case(lambda x, y: F.mse_loss(x, y, reduction="sum"), [S(3, 4), S(3, 4)]),
    "mse_none": Case(lambda x, y: F.mse_loss(x, y, reduction="none"), [S(3, 4), S(3, 4)]),
    "l1_mean": Case(F.l1_loss, [S(3, 4), S(3, 4)]),
    "l1_none": Case(lambda x, y: F.l1_loss(x, y, reduction="none"), [S(3, 4), S(3, 4)]),
    "smooth_l1_mean": Case(F.smooth_l1_loss, [S(3, 4), S(3, 4)]),
    "smooth_l1_beta_none": Case(lambda x, y: F.smooth_l1_loss(x, y, reduction="none", beta=0.5),
                                [S(3, 4), S(3, 4)]),
    "smooth_l1_beta0_sum": Case(lambda x, y: F.smooth_l1_loss(x, y, reduction="sum", beta=0.0),
                                [S(3, 4), S(3, 4)]),
    "huber_mean": Case(F.huber_loss, [S(3, 4), S(3, 4)]),
    "huber_delta_none": Case(lambda x, y: F.huber_loss(x, y, reduction="none", delta=0.7),
                             [S(3, 4), S(3, 4)]),
    "bce_mean": Case(bce(), [S(4, 3, domain="positive"), S(4, 3, domain="positive")]),
    "bce_none": Case(bce(reduction="none"),
                     [S(4, 3, domain="positive"), S(4, 3, domain="positive")]),
    "bce_weight_sum": Case(
        lambda x, y, w: F.binary_cross_entropy(x * 0.4, y * 0.4, weight=w.detach(),
                                               reduction="sum"),
        [S(4, 3, domain="positive"), S(4, 3, domain="positive"), S(3, domain="positive")]),
    "bce_logits_mean": Case(F.binary_cross_entropy_with_logits, [S(4, 3), S(4, 3, domain="unit")]),
    "bce_logits_none": Case(lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction="none"),
                            [S(4, 3), S(4, 3, domain="unit")]),
    "bce_logits_large_sum": Case(
        lambda x, y: F.binary_cross_entropy_with_logits(x * 30, y, reduction="sum"),
        [S(4, 3), S(4, 3, domain="unit")]),
    "bce_logits_pos_weight_weight_mean": Case(
        lambda x, y, p, w: F.binary_cross_entropy_with_logits(x, y, weight=w.detach(),
                                                              pos_weight=p.detach()),
        [S(4, 3), S(4, 3, domain="unit"), S(3, domain="positive"), S(4, 1, domain="positive")]),
    "kl_div_batchmean": Case(lambda x, y: F.kl_div(x, y, reduction="batchmean"),
                             [S(3, 4), S(3, 4, domain="positive")]),
    "kl_div_mean": Case(lambda x, y: F.kl_div(x, y, reduction="mean"),
                        [S(3, 4), S(3, 4, domain="positive")]),
    "kl_div_none": Case(lambda x, y: F.kl_div(x, y, reduction="none"),
                        [S(3, 4), S(3, 4, domain="positive")]),
    "kl_div_log_target_sum": Case(lambda x, y: F.kl_div(x, y, reduction="sum", log_target=True),
                                  [S(3, 4), S(3, 4)]),
    "poisson_nll": Case(F.poisson_nll_loss, [S(3, 4), S(3, 4, domain="positive")]),
    "poisson_nll_rates_full_sum":
        Case(lambda x, y: F.poisson_nll_loss(x, y, log_input=False, full=True, reduction="sum"),
             [S(3, 4, domain="positive"), S(3, 4, domain="positive")]),
    "gaussian_nll": Case(F.gaussian_nll_loss, [S(3, 4), S(3, 4), S(3, 4, domain="positive")]),
    "gaussian_nll_shared_var_full_sum":
        Case(lambda x, y, v: F.gaussian_nll_loss(x, y, v, full=True, reduction="sum"),
             [S(3, 4), S(3, 4), S(3, domain="positive")]),
    "gaussian_nll_var_dim_1_none":
        Case(lambda x, y, v: F.gaussian_nll_loss(x, y, v, reduction="none"),
             [S(3, 4), S(3, 4), S(3, 1, domain="positive")]),
}
