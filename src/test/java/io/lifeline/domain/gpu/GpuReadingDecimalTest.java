package io.lifeline.domain.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A GPU view's readings are each float's decimal form, found without a string where that is safe. */
class GpuReadingDecimalTest {

    @Test
    void givesWhatPrintingAndParsingTheFloatGives() {
        Random random = new Random(7);
        List<Float> floats = new ArrayList<>(List.of(
                0f,
                -0f,
                1f,
                40.979f,
                350.5f,
                99.999f,
                1023.999f,
                1024f,
                1024.001f,
                61234.3f,
                81920.7f,
                1_048_575.9f,
                2_097_151.5f,
                0.001f,
                0.0005f,
                16_777_215f,
                16_777_216f,
                3.0e9f,
                1.0e-7f,
                Float.MIN_VALUE,
                Float.MAX_VALUE,
                Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY));
        for (int i = 0; i < 200_000; i++) {
            floats.add((float) random.nextInt(100_000)); // whole readings (MiB, %)
            floats.add((random.nextInt(2_048_000) - 1_024_000) / 1000f); // three decimals or fewer
            floats.add((random.nextInt(20_000_000)) / 100f); // two decimals, any size
            floats.add((random.nextInt(20_000_000)) / 10f); // one decimal (MiB, W)
            floats.add(Float.intBitsToFloat(random.nextInt())); // any float at all
            floats.add(random.nextFloat() * 2048f - 1024f); // long decimal forms
        }
        List<String> wrong = new ArrayList<>();
        for (float f : floats) {
            if (Float.isNaN(f)) {
                continue;
            }
            double expected = Double.parseDouble(Float.toString(f));
            double got = GpuState.decimal(f);
            if (Double.doubleToLongBits(expected) != Double.doubleToLongBits(got)) {
                wrong.add(f + ": " + got + " instead of " + expected);
            }
        }
        assertThat(wrong).isEmpty();
    }
}
