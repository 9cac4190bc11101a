/* loggen - seeded logs of the shapes servers write, for the benchmark
 *
 * Usage: loggen SHAPE BYTES [SEED]
 *
 * Writes whole lines of SHAPE to stdout until the next would pass BYTES.
 * The same SHAPE, BYTES and SEED give the same bytes on every machine
 * (splitmix64, no libc randomness, no locale).  The shapes model what real
 * logs do, as the Loghub samples show it: a few clients, paths, users and
 * messages make most lines (Zipf's law over thousands to a million
 * values), ids and numbers are fresh on every line, time moves forward a
 * few lines a second, and errors bring stack traces.
 *
 *   access  Apache/nginx combined log: clients, paths with ids, statuses,
 *           sizes (heavy-tailed), referers and agents, all Zipf-drawn
 *   syslog  RFC 3164 lines: sshd, CRON, kernel, systemd and app messages
 *   json    JSON lines: ts, level, service, trace id, message, latency,
 *           status, user, one nested object
 *   app     a Java service's log: timestamp, level, thread, logger, message;
 *           an ERROR in 200 brings a stack trace of 8-40 frames, some with
 *           a "Caused by:"
 *   csv     events with a header: time, user, country, event, amount,
 *           device, session
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- randomness ---- */

static uint64_t rng_state;

static uint64_t next64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double uniform(void)             /* [0, 1) */
{
	return (double)(next64() >> 11) * 0x1.0p-53;
}

static uint64_t below(uint64_t n)
{
	return next64() % n;
}

/* A Zipf law over n ranks with exponent s: rank k (0-based) drawn with
 * weight 1/(k+1)^s, by a binary search of the cumulative weights. */
struct zipf {
	int n;
	double *cdf;
};

static struct zipf zipf_new(int n, double s)
{
	struct zipf z = { n, malloc((size_t)n * sizeof(double)) };
	double sum = 0;

	if (!z.cdf) {
		perror("loggen");
		exit(1);
	}
	for (int k = 0; k < n; k++)
		z.cdf[k] = sum += pow(k + 1.0, -s);
	for (int k = 0; k < n; k++)
		z.cdf[k] /= sum;
	return z;
}

static int zipf_draw(const struct zipf *z)
{
	double u = uniform();
	int lo = 0, hi = z->n - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A value of rank k, spread over the space of values by a fixed mixing, so
 * that the commonest client is not 0.0.0.1. */
static uint64_t scatter(uint64_t k, uint64_t salt)
{
	uint64_t z = k * 0x9e3779b97f4a7c15u ^ salt;

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9u;
	return z ^ (z >> 29);
}

/* A log-normal size: exp(mu + sigma * N(0,1)), by Box-Muller. */
static uint64_t lognormal(double mu, double sigma)
{
	double u1 = uniform() + 1e-12, u2 = uniform();
	double n = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);

	return (uint64_t)exp(mu + sigma * n);
}

#define PICK(a) ((a)[below(sizeof(a) / sizeof((a)[0]))])
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- time ---- */

static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May",
	"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

/* Seconds since 2026-11-01 00:00:00 UTC and milliseconds, moved on by a
 * few lines a second, bursts included. */
static uint64_t clock_s, clock_ms;

static void tick(void)
{
	clock_ms += below(4) ? below(40) : below(900);
	clock_s += clock_ms / 1000;
	clock_ms %= 1000;
}

struct when {
	int year, mon, day, hour, min, sec;
};

static struct when when_now(void)
{
	uint64_t s = clock_s;
	struct when w = { 2026, 10, 1, 0, 0, 0 };
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
				     30, 31 };

	w.sec = (int)(s % 60);
	w.min = (int)(s / 60 % 60);
	w.hour = (int)(s / 3600 % 24);
	for (uint64_t d = s / 86400; d > 0; d--)
		if (++w.day > mdays[w.mon]) {
			w.day = 1;
			if (++w.mon == 12) {
				w.mon = 0;
				w.year++;
			}
		}
	return w;
}

/* ---- output ---- */

static char line[1 << 16];
static size_t line_len;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#include <stdarg.h>
static void put(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line + line_len, sizeof(line) - line_len, fmt, ap);

	va_end(ap);
	if (n > 0)
		line_len += (size_t)n < sizeof(line) - line_len
				    ? (size_t)n : sizeof(line) - 1 - line_len;
}

static void hex(int digits)
{
	static const char xd[] = "0123456789abcdef";
	uint64_t v = next64();

	for (int i = 0; i < digits && line_len < sizeof(line) - 1; i++) {
		if (i == 16)
			v = next64();
		line[line_len++] = xd[(v >> (4 * (i % 16))) & 15];
	}
}

/* ---- shapes ---- */

static const char *const methods[] = { "GET", "GET", "GET", "GET", "GET",
	"GET", "POST", "POST", "PUT", "DELETE", "HEAD" };
static const char *const path_forms[] = {
	"/", "/index.html", "/favicon.ico", "/robots.txt", "/login",
	"/static/js/app.%u.js", "/static/css/main.%u.css", "/images/%u.png",
	"/api/v1/users/%u", "/api/v1/users/%u/orders", "/api/v1/items/%u",
	"/api/v1/search?q=item%u&page=2", "/blog/2026/11/post-%u.html",
	"/api/v2/cart/%u/checkout", "/wp-login.php", "/.env",
	"/api/v1/health", "/metrics", "/download/file-%u.tar.gz",
	"/products/%u?ref=home", "/cgi-bin/test.cgi", "/assets/font-%u.woff2" };
static const char *const agent_forms[] = {
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%u.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.%u Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:%u.0) Gecko/20100101 Firefox/%u.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_%u like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
	"curl/8.%u.0", "python-requests/2.%u.1", "Go-http-client/1.1",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"kube-probe/1.%u", "Prometheus/2.%u.0" };

static struct zipf z_client, z_path, z_id, z_agent, z_user, z_msg, z_host;

static void access_line(void)
{
	uint64_t c = scatter((uint64_t)zipf_draw(&z_client), 1);
	struct when w = when_now();
	int p = zipf_draw(&z_path) % COUNT(path_forms);
	unsigned id = (unsigned)scatter((uint64_t)zipf_draw(&z_id), 2) % 1000000;
	double u = uniform();
	int status = u < 0.80 ? 200 : u < 0.88 ? 304 : u < 0.93 ? 404 :
		     u < 0.95 ? 301 : u < 0.97 ? 302 : u < 0.985 ? 403 :
		     u < 0.995 ? 500 : 503;
	int a = zipf_draw(&z_agent);
	unsigned av = (unsigned)(a / COUNT(agent_forms)) % 40 + 80;

	put("%u.%u.%u.%u - ", (unsigned)(c >> 24 & 255) | 1,
	    (unsigned)(c >> 16 & 255), (unsigned)(c >> 8 & 255),
	    (unsigned)(c & 255));
	if (below(10) == 0)
		put("user%u ", (unsigned)zipf_draw(&z_user));
	else
		put("- ");
	put("[%02d/%s/%d:%02d:%02d:%02d +0000] \"%s ", w.day, months[w.mon],
	    w.year, w.hour, w.min, w.sec, PICK(methods));
	put(path_forms[p], id);
	put(" HTTP/%s\" %d %" PRIu64 " \"", below(5) ? "1.1" : "2.0", status,
	    status == 304 ? 0 : lognormal(8.0, 1.6));
	if (below(3))
		put("-");
	else
		put("https://www.example.com%s", path_forms[zipf_draw(&z_path) % 5]);
	put("\" \"");
	put(agent_forms[a % COUNT(agent_forms)], av, av);
	put("\"\n");
}

static const char *const users[] = { "root", "admin", "ubuntu", "git",
	"deploy", "oracle", "test", "postgres", "www-data", "backup" };
static const char *const units[] = { "nginx.service", "docker.service",
	"ssh.service", "cron.service", "systemd-journald.service",
	"logrotate.service", "apt-daily.service", "snapd.service" };

static void syslog_line(void)
{
	struct when w = when_now();
	int h = zipf_draw(&z_host);
	uint64_t c = scatter((uint64_t)zipf_draw(&z_client), 3);
	unsigned pid = 1000 + (unsigned)below(60000);
	double u = uniform();

	put("%s %2d %02d:%02d:%02d host-%02d ", months[w.mon], w.day, w.hour,
	    w.min, w.sec, h);
	if (u < 0.30) {
		put("sshd[%u]: ", pid);
		if (below(3))
			put("Failed password for %s%s from %u.%u.%u.%u port %u ssh2\n",
			    below(4) ? "" : "invalid user ", PICK(users),
			    (unsigned)(c >> 24 & 255) | 1, (unsigned)(c >> 16 & 255),
			    (unsigned)(c >> 8 & 255), (unsigned)(c & 255),
			    1024 + (unsigned)below(64000));
		else
			put("Accepted publickey for %s from %u.%u.%u.%u port %u ssh2: RSA SHA256:%08x\n",
			    PICK(users), (unsigned)(c >> 24 & 255) | 1,
			    (unsigned)(c >> 16 & 255), (unsigned)(c >> 8 & 255),
			    (unsigned)(c & 255), 1024 + (unsigned)below(64000),
			    (unsigned)scatter(c, 4));
	} else if (u < 0.45) {
		put("CRON[%u]: (%s) CMD (/usr/local/bin/job-%d.sh > /dev/null 2>&1)\n",
		    pid, PICK(users), zipf_draw(&z_msg) % 30);
	} else if (u < 0.60) {
		put("kernel: [%" PRIu64 ".%06u] ", clock_s % 10000000,
		    (unsigned)below(1000000));
		if (below(2))
			put("[UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:%02x:%02x:%02x SRC=%u.%u.%u.%u DST=10.0.0.%u LEN=%u PROTO=TCP SPT=%u DPT=%u\n",
			    (unsigned)below(256), (unsigned)below(256),
			    (unsigned)below(256), (unsigned)(c >> 24 & 255) | 1,
			    (unsigned)(c >> 16 & 255), (unsigned)(c >> 8 & 255),
			    (unsigned)(c & 255), (unsigned)below(250) + 2,
			    40 + (unsigned)below(1400), 1024 + (unsigned)below(64000),
			    below(2) ? 22 : 443);
		else
			put("EXT4-fs (sda%u): mounted filesystem with ordered data mode. Quota mode: none.\n",
			    (unsigned)below(4) + 1);
	} else if (u < 0.75) {
		put("systemd[1]: %s %s%s\n",
		    below(2) ? "Started" : below(2) ? "Stopping" : "Reloading",
		    PICK(units), below(10) ? "." : " - failed with result 'exit-code'.");
	} else {
		put("app[%u]: request id=%08x user=u%u took %u ms\n", pid,
		    (unsigned)next64(), (unsigned)zipf_draw(&z_user),
		    (unsigned)lognormal(3.0, 1.0));
	}
}

static const char *const levels_json[] = { "INFO", "INFO", "INFO", "INFO",
	"INFO", "INFO", "DEBUG", "DEBUG", "WARN", "ERROR" };
static const char *const services[] = { "api", "auth", "billing", "search",
	"gateway", "worker", "notifier" };
static const char *const messages[] = {
	"request completed", "cache miss", "user logged in", "token refreshed",
	"payment authorized", "retrying upstream call", "connection reset by peer",
	"slow query detected", "rate limit exceeded", "order created",
	"index updated", "job scheduled", "upstream timeout", "config reloaded",
	"session expired", "invalid signature on \\\"webhook\\\"" };

static void json_line(void)
{
	struct when w = when_now();
	const char *level = PICK(levels_json);
	double u = uniform();
	int status = u < 0.9 ? 200 : u < 0.95 ? 201 : u < 0.98 ? 404 : 500;

	put("{\"ts\":\"%d-%02d-%02dT%02d:%02d:%02d.%03" PRIu64 "Z\",\"level\":\"%s\","
	    "\"service\":\"%s\",\"trace_id\":\"", w.year, w.mon + 1, w.day,
	    w.hour, w.min, w.sec, clock_ms, level,
	    services[zipf_draw(&z_host) % COUNT(services)]);
	hex(32);
	put("\",\"msg\":\"%s\",\"latency_ms\":%.3f,\"status\":%d,"
	    "\"user\":\"u%u\",\"req\":{\"method\":\"%s\",\"path\":\"",
	    messages[zipf_draw(&z_msg) % COUNT(messages)],
	    (double)lognormal(2.5, 1.2) + uniform(), status,
	    (unsigned)zipf_draw(&z_user), PICK(methods));
	put(path_forms[zipf_draw(&z_path) % COUNT(path_forms)],
	    (unsigned)scatter((uint64_t)zipf_draw(&z_id), 5) % 1000000);
	put("\",\"bytes\":%" PRIu64 "}}\n", lognormal(7.0, 1.5));
}

static const char *const loggers[] = {
	"com.example.api.OrderController", "com.example.db.ConnectionPool",
	"com.example.auth.TokenService", "org.hibernate.SQL",
	"org.springframework.web.servlet.DispatcherServlet",
	"com.example.billing.InvoiceJob", "io.netty.channel.DefaultChannelPipeline" };
static const char *const frames[] = {
	"com.example.api.OrderController.create(OrderController.java:%u)",
	"com.example.service.OrderService.place(OrderService.java:%u)",
	"com.example.db.Repository.save(Repository.java:%u)",
	"org.hibernate.internal.SessionImpl.flush(SessionImpl.java:%u)",
	"org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:%u)",
	"org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:%u)",
	"jdk.internal.reflect.GeneratedMethodAccessor%u.invoke(Unknown Source)",
	"java.base/java.lang.Thread.run(Thread.java:%u)",
	"org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:%u)",
	"com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:%u)" };
static const char *const exceptions[] = {
	"java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null",
	"java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms.",
	"java.lang.IllegalStateException: order %u already placed",
	"java.net.SocketTimeoutException: Read timed out",
	"org.springframework.dao.DataIntegrityViolationException: could not execute statement" };

static void app_line(void)
{
	struct when w = when_now();
	int error = below(200) == 0;
	const char *level = error ? "ERROR" : below(20) ? "INFO " : "WARN ";

	put("%d-%02d-%02d %02d:%02d:%02d,%03" PRIu64 " %s [http-nio-8080-exec-%u] %s - ",
	    w.year, w.mon + 1, w.day, w.hour, w.min, w.sec, clock_ms, level,
	    1 + (unsigned)zipf_draw(&z_host) % 200,
	    loggers[zipf_draw(&z_msg) % COUNT(loggers)]);
	if (!error) {
		put("%s id=%u user=u%u in %u ms\n",
		    messages[zipf_draw(&z_msg) % COUNT(messages)],
		    (unsigned)below(100000000), (unsigned)zipf_draw(&z_user),
		    (unsigned)lognormal(3.0, 1.0));
		return;
	}
	put("Request processing failed\n");
	for (int cause = 0; cause < 1 + (below(3) == 0); cause++) {
		put(cause ? "Caused by: " : "");
		put(PICK(exceptions), (unsigned)below(1000000));
		put("\n");
		for (int f = 8 + (int)below(33); f > 0; f--) {
			put("\tat ");
			put(PICK(frames), 20 + (unsigned)below(900));
			put("\n");
		}
		if (cause)
			put("\t... %u more\n", 10 + (unsigned)below(40));
	}
}

static const char *const countries[] = { "US", "DE", "GB", "FR", "IN", "BR",
	"JP", "CA", "NL", "ES", "IT", "PL", "SE", "AU", "KR" };
static const char *const events[] = { "page_view", "page_view", "page_view",
	"click", "click", "add_to_cart", "purchase", "signup", "logout",
	"search" };
static const char *const devices[] = { "desktop", "mobile", "mobile",
	"tablet", "bot" };

static void csv_line(void)
{
	struct when w = when_now();
	const char *ev = PICK(events);

	put("%d-%02d-%02d %02d:%02d:%02d,u%u,%s,%s,", w.year, w.mon + 1, w.day,
	    w.hour, w.min, w.sec, (unsigned)zipf_draw(&z_user),
	    countries[zipf_draw(&z_host) % COUNT(countries)], ev);
	if (!strcmp(ev, "purchase"))
		put("%" PRIu64 ".%02u", lognormal(3.5, 1.0), (unsigned)below(100));
	put(",%s,", PICK(devices));
	hex(12);
	put("\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*line)(void);
		const char *header;
	} shapes[] = {
		{ "access", access_line, NULL },
		{ "syslog", syslog_line, NULL },
		{ "json", json_line, NULL },
		{ "app", app_line, NULL },
		{ "csv", csv_line,
		  "time,user,country,event,amount,device,session\n" },
	};
	char *end;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: loggen access|syslog|json|app|csv BYTES [SEED]\n");
		return 2;
	}
	unsigned long long bytes = strtoull(argv[2], &end, 10);

	if (*end) {
		fprintf(stderr, "loggen: %s: not a number of bytes\n", argv[2]);
		return 2;
	}
	rng_state = argc == 4 ? strtoull(argv[3], NULL, 10) : 20261127;
	z_client = zipf_new(200000, 1.05);
	z_path = zipf_new(2000, 1.1);
	z_id = zipf_new(1000000, 0.9);
	z_agent = zipf_new(400, 1.3);
	z_user = zipf_new(100000, 1.0);
	z_msg = zipf_new(500, 1.2);
	z_host = zipf_new(64, 0.8);
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		if (strcmp(argv[1], shapes[s].name))
			continue;
		static char out[1 << 20];
		size_t fill = 0;
		unsigned long long written = 0;

		if (shapes[s].header) {
			line_len = strlen(shapes[s].header);
			memcpy(line, shapes[s].header, line_len);
		} else {
			line_len = 0;
			shapes[s].line();
		}
		while (written + line_len <= bytes) {
			if (fill + line_len > sizeof(out)) {
				if (fwrite(out, 1, fill, stdout) != fill)
					goto write_failed;
				fill = 0;
			}
			memcpy(out + fill, line, line_len);
			fill += line_len;
			written += line_len;
			line_len = 0;
			tick();
			shapes[s].line();
		}
		if (fwrite(out, 1, fill, stdout) != fill || fflush(stdout))
			goto write_failed;
		return 0;
	}
	fprintf(stderr, "loggen: %s: no such shape\n", argv[1]);
	return 2;
write_failed:
	perror("loggen: stdout");
	return 1;
}
