/*
 * Unit tests of the exact decimal time parser: real profiler values, the
 * rounding policy, exponents, signs, blanks, overflow and bad syntax.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dtime.h"

static int64_t
parse_ok(const char *s, int scale)
{
	int64_t v = 12345;

	CHECK(dtime_parse(s, strlen(s), scale, &v) == DTIME_OK);
	return v;
}

static enum dtime_err
parse_err(const char *s, int scale)
{
	int64_t v;

	return dtime_parse(s, strlen(s), scale, &v);
}

int
main(void)
{
	char buf[32];

	/* Ascend epoch microseconds with three decimals, as in the corpus. */
	CHECK(parse_ok("1736408883688177.930", 3) == 1736408883688177930LL);
	CHECK(parse_ok("1785933978517390.140", 3) == 1785933978517390140LL);
	/* The raw TAB torch_npu writes after times is a blank. */
	CHECK(parse_ok("1727593954640599.301\t", 3) == 1727593954640599301LL);
	CHECK(parse_ok("  42 ", 0) == 42);
	/* Kineto: integer and one-decimal microseconds. */
	CHECK(parse_ok("1661203462598738", 3) == 1661203462598738000LL);
	CHECK(parse_ok("1712195495519695.8", 3) == 1712195495519695800LL);
	/* Milliseconds (communication.json) and seconds. */
	CHECK(parse_ok("0.0213", 6) == 21300);
	CHECK(parse_ok("1.5", 9) == 1500000000);
	/* Sub-nanosecond digits round to nearest, halves away from zero. */
	CHECK(parse_ok("496.8508", 3) == 496851);
	CHECK(parse_ok("0.0004", 3) == 0);
	CHECK(parse_ok("0.0005", 3) == 1);
	CHECK(parse_ok("-0.0005", 3) == -1);
	CHECK(parse_ok("2.4994999", 3) == 2499);
	/* Exponents and signs. */
	CHECK(parse_ok("1e3", 3) == 1000000);
	CHECK(parse_ok("1.5E-3", 3) == 2);
	CHECK(parse_ok("+7", 3) == 7000);
	CHECK(parse_ok("-12.25", 3) == -12250);
	CHECK(parse_ok("0", 3) == 0);
	CHECK(parse_ok("000012.5", 3) == 12500);
	CHECK(parse_ok(".5", 3) == 500);
	CHECK(parse_ok("5.", 3) == 5000);
	CHECK(parse_ok("0e999999999", 3) == 0);
	CHECK(parse_ok("1e-999999", 3) == 0);
	/*
	 * More than 64 integer digits brought back by the exponent (found
	 * by fuzz/fuzz-dtime, fuzz/regress/dtime/): a value, not a range
	 * error.
	 */
	CHECK(parse_ok("1" "0000000000" "0000000000" "0000000000" "0000000000"
	    "0000000000" "0000000000" "0000000000" "e-70", 3) == 1000);
	CHECK(parse_ok("1766666666666666666666666666666666666666600000000000"
	    "000000000000000E-666", 0) == 0);
	/* int64 limits: 9223372036854775807 ns is the largest time. */
	CHECK(parse_ok("9223372036854775.807", 3) == INT64_MAX);
	CHECK(parse_ok("-9223372036854775.808", 3) == INT64_MIN);
	CHECK(parse_err("9223372036854775.808", 3) == DTIME_RANGE);
	CHECK(parse_err("9223372036854775.8075", 3) == DTIME_RANGE);
	CHECK(parse_err("1e40", 0) == DTIME_RANGE);
	CHECK(parse_err("123456789012345678901234567890", 0) == DTIME_RANGE);
	/* Syntax. */
	CHECK(parse_err("", 3) == DTIME_EMPTY);
	CHECK(parse_err(" \t", 3) == DTIME_EMPTY);
	CHECK(parse_err("N/A", 3) == DTIME_SYNTAX);
	CHECK(parse_err("1.2.3", 3) == DTIME_SYNTAX);
	CHECK(parse_err("12x", 3) == DTIME_SYNTAX);
	CHECK(parse_err("1e", 3) == DTIME_SYNTAX);
	CHECK(parse_err("-", 3) == DTIME_SYNTAX);
	CHECK(parse_err(".", 3) == DTIME_SYNTAX);
	CHECK(parse_err("\"12\"", 3) == DTIME_SYNTAX);
	CHECK(parse_err("1 2", 3) == DTIME_SYNTAX);
	CHECK_STR(dtime_strerror(DTIME_SYNTAX), "not a decimal number");
	/* Formatting back. */
	dtime_format(1500, 3, buf);
	CHECK_STR(buf, "1.5");
	dtime_format(-250, 3, buf);
	CHECK_STR(buf, "-0.25");
	dtime_format(7, 0, buf);
	CHECK_STR(buf, "7");
	dtime_format(1000000, 6, buf);
	CHECK_STR(buf, "1");
	dtime_format(INT64_MIN, 3, buf);
	CHECK_STR(buf, "-9223372036854775.808");
	CHECK_DONE();
}
