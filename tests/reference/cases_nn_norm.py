"""Reference cases for the normalization layers (tests/nn/normalization_test.cpp): batch_norm
in training and eval (running statistics as non-differentiated inputs), layer_norm and
group_norm, plus BatchNorm2d/1d modules' running statistics after three training steps and
their eval output afterwards; instance_norm (batch statistics, running statistics, their update),
rms_norm and local_response_norm."""
import torch
import torch.nn.functional as F

from op_case import Case, S


def bn_train(x, rm, rv, w=None, b=None):
    return F.batch_norm(x, rm.detach().clone(), rv.detach().clone(), w, b, True, 0.1, 1e-5)


def bn_eval(x, rm, rv, w, b):
    return F.batch_norm(x, rm.detach(), rv.detach(), w, b, False, 0.1, 1e-5)


def running_stats(module_type, momentum, *batches):
    """The module's running_mean and running_var, concatenated, after a train step per batch."""
    bn = module_type(batches[0].shape[1], momentum=momentum).double()
    for x in batches:
        bn(x.detach())
    return torch.cat([bn.running_mean, bn.running_var])


def eval_after_training(x1, x2, x3, x):
    bn = torch.nn.BatchNorm2d(x.shape[1]).double()
    for batch in (x1, x2, x3):
        bn(batch.detach())
    bn.eval()
    return bn(x)


def instance_running_stats(x1, x2):
    """InstanceNorm2d's running_mean and running_var, concatenated, after a train step per batch."""
    norm = torch.nn.InstanceNorm2d(x1.shape[1], momentum=0.2, track_running_stats=True).double()
    for x in (x1, x2):
        norm(x.detach())
    return torch.cat([norm.running_mean, norm.running_var])


P = "positive"

CASES = {
    "batch_norm_train_2d": Case(bn_train, [S(4, 3, 2, 2), S(3), S(3, domain=P), S(3), S(3)]),
    "batch_norm_train_1d": Case(bn_train, [S(5, 3), S(3), S(3, domain=P), S(3), S(3)]),
    "batch_norm_train_1d_seq": Case(bn_train, [S(4, 3, 5), S(3), S(3, domain=P), S(3), S(3)]),
    "batch_norm_train_no_affine": Case(bn_train, [S(3, 2, 3, 2), S(2), S(2, domain=P)]),
    "batch_norm_eval_2d": Case(bn_eval, [S(2, 3, 2, 3), S(3), S(3, domain=P), S(3), S(3)]),
    "batch_norm_eval_1d": Case(bn_eval, [S(4, 3), S(3), S(3, domain=P), S(3), S(3)]),
    "layer_norm": Case(lambda x, w, b: F.layer_norm(x, (4,), w, b), [S(3, 4), S(4), S(4)]),
    "layer_norm_two_dims": Case(lambda x, w, b: F.layer_norm(x, (3, 4), w, b),
                                [S(2, 3, 4), S(3, 4), S(3, 4)]),
    "layer_norm_no_affine": Case(lambda x: F.layer_norm(x, (5,), eps=1e-3), [S(2, 3, 5)]),
    "group_norm": Case(lambda x, w, b: F.group_norm(x, 3, w, b), [S(2, 6, 3, 2), S(6), S(6)]),
    "group_norm_one_group": Case(lambda x, w, b: F.group_norm(x, 1, w, b),
                                 [S(2, 4, 3), S(4), S(4)]),
    "group_norm_per_channel": Case(lambda x: F.group_norm(x, 4), [S(3, 4, 2, 2)]),
    "batchnorm2d_running_stats": Case(
        lambda a, b, c: running_stats(torch.nn.BatchNorm2d, 0.1, a, b, c),
        [S(4, 3, 2, 2), S(4, 3, 2, 2), S(4, 3, 2, 2)], grad=False),
    "batchnorm2d_running_stats_cumulative": Case(
        lambda a, b, c: running_stats(torch.nn.BatchNorm2d, None, a, b, c),
        [S(2, 3, 3, 2), S(2, 3, 3, 2), S(2, 3, 3, 2)], grad=False),
    "batchnorm1d_running_stats": Case(
        lambda a, b, c: running_stats(torch.nn.BatchNorm1d, 0.3, a, b, c),
        [S(6, 4), S(6, 4), S(6, 4)], grad=False),
    "batchnorm2d_eval_after_training": Case(
        eval_after_training, [S(4, 2, 2, 2), S(4, 2, 2, 2), S(4, 2, 2, 2), S(2, 2, 3, 3)]),
    "batch_norm_train_3d": Case(bn_train, [S(2, 3, 2, 2, 2), S(3), S(3, domain=P), S(3), S(3)]),
    "instance_norm_1d": Case(lambda x, w, b: F.instance_norm(x, weight=w, bias=b),
                             [S(2, 3, 4), S(3), S(3)]),
    "instance_norm_2d_no_affine": Case(lambda x: F.instance_norm(x), [S(2, 3, 3, 2)]),
    "instance_norm_eval": Case(
        lambda x, rm, rv, w, b: F.instance_norm(x, rm.detach(), rv.detach(), w, b,
                                                use_input_stats=False),
        [S(2, 3, 4), S(3), S(3, domain=P), S(3), S(3)]),
    "instance_norm_running_stats": Case(instance_running_stats, [S(2, 3, 2, 2), S(3, 3, 2, 2)],
                                        grad=False),
    "rms_norm": Case(lambda x, w: F.rms_norm(x, (4,), w), [S(3, 4), S(4)]),
    "rms_norm_two_dims": Case(lambda x: F.rms_norm(x, (2, 3), eps=1e-3), [S(2, 2, 3)]),
    "local_response_norm": Case(lambda x: F.local_response_norm(x, 3), [S(2, 5, 3)]),
    "local_response_norm_4d": Case(
        lambda x: F.local_response_norm(x, 4, alpha=0.5, beta=0.6, k=2.0), [S(2, 6, 2, 3)]),
}
