package io.lifeline.domain.fleet.reliability;

/**
 * The regularized incomplete gamma function and its inverse, in pure Java: what the chi-square quantiles of a
 * Poisson rate's exact interval and a Poisson tail need. Series and continued fraction after Numerical Recipes
 * (3rd ed., §6.2), accurate to about 1e-10 relative; the inverse is Halley's method from the book's first guess.
 */
public final class Gamma {

    private static final double EPS = 1e-15;
    private static final double FPMIN = Double.MIN_NORMAL / EPS;
    private static final double[] LANCZOS = {
        57.1562356658629235,
        -59.5979603554754912,
        14.1360979747417471,
        -0.491913816097620199,
        .339946499848118887e-4,
        .465236289270485756e-4,
        -.983744753048795646e-4,
        .158088703224912494e-3,
        -.210264441724104883e-3,
        .217439618115212643e-3,
        -.164318106536763890e-3,
        .844182239838527433e-4,
        -.261908384015814087e-4,
        .368991826595316234e-5
    };

    private Gamma() {}

    /** ln Γ(x) for x &gt; 0 (Lanczos, g = 607/128). */
    public static double lnGamma(double x) {
        if (!(x > 0)) {
            throw new IllegalArgumentException("lnGamma needs x > 0, got " + x);
        }
        double y = x;
        double tmp = x + 5.24218750000000000;
        tmp = (x + 0.5) * Math.log(tmp) - tmp;
        double ser = 0.999999999999997092;
        for (double c : LANCZOS) {
            ser += c / ++y;
        }
        return tmp + Math.log(2.5066282746310005 * ser / x);
    }

    /** P(a, x) = γ(a, x) / Γ(a), the regularized lower incomplete gamma function, for a &gt; 0 and x ≥ 0. */
    public static double p(double a, double x) {
        check(a, x);
        if (x == 0) {
            return 0;
        }
        return x < a + 1 ? series(a, x) : 1 - continuedFraction(a, x);
    }

    /** Q(a, x) = 1 − P(a, x), computed without cancellation where it is small. */
    public static double q(double a, double x) {
        check(a, x);
        if (x == 0) {
            return 1;
        }
        return x < a + 1 ? 1 - series(a, x) : continuedFraction(a, x);
    }

    /** The x with P(a, x) = p, for a &gt; 0 and 0 ≤ p ≤ 1 (0 at p = 0, +∞ at p = 1). */
    public static double inverseP(double prob, double a) {
        if (!(a > 0)) {
            throw new IllegalArgumentException("a must be > 0, got " + a);
        }
        if (!(prob >= 0 && prob <= 1)) {
            throw new IllegalArgumentException("p must be within [0, 1], got " + prob);
        }
        if (prob == 0) {
            return 0;
        }
        if (prob == 1) {
            return Double.POSITIVE_INFINITY;
        }
        double a1 = a - 1;
        double gln = lnGamma(a);
        double lna1 = 0;
        double afac = 0;
        double x;
        if (a > 1) {
            lna1 = Math.log(a1);
            afac = Math.exp(a1 * (lna1 - 1) - gln);
            double pp = prob < 0.5 ? prob : 1 - prob;
            double t = Math.sqrt(-2 * Math.log(pp));
            x = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
            if (prob < 0.5) {
                x = -x;
            }
            x = Math.max(1e-3, a * Math.pow(1 - 1 / (9 * a) - x / (3 * Math.sqrt(a)), 3));
        } else {
            double t = 1 - a * (0.253 + a * 0.12);
            x = prob < t ? Math.pow(prob / t, 1 / a) : 1 - Math.log(1 - (prob - t) / (1 - t));
        }
        for (int j = 0; j < 100; j++) {
            if (x <= 0) {
                return 0;
            }
            double err = p(a, x) - prob;
            double t = a > 1
                    ? afac * Math.exp(-(x - a1) + a1 * (Math.log(x) - lna1))
                    : Math.exp(-x + a1 * Math.log(x) - gln);
            double u = err / t;
            double step = u / (1 - 0.5 * Math.min(1, u * ((a - 1) / x - 1)));
            x -= step;
            if (x <= 0) {
                x = 0.5 * (x + step);
            }
            if (Math.abs(step) < 1e-12 * x) {
                break;
            }
        }
        return x;
    }

    private static void check(double a, double x) {
        if (!(a > 0) || !(x >= 0)) {
            throw new IllegalArgumentException("incomplete gamma needs a > 0 and x >= 0, got a=" + a + ", x=" + x);
        }
    }

    private static double series(double a, double x) {
        double ap = a;
        double del = 1 / a;
        double sum = del;
        for (int n = 0; n < 10_000; n++) {
            ap++;
            del *= x / ap;
            sum += del;
            if (Math.abs(del) < Math.abs(sum) * EPS) {
                break;
            }
        }
        return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
    }

    private static double continuedFraction(double a, double x) {
        double b = x + 1 - a;
        double c = 1 / FPMIN;
        double d = 1 / b;
        double h = d;
        for (int i = 1; i < 10_000; i++) {
            double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (Math.abs(d) < FPMIN) {
                d = FPMIN;
            }
            c = b + an / c;
            if (Math.abs(c) < FPMIN) {
                c = FPMIN;
            }
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < EPS) {
                break;
            }
        }
        return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
    }
}
