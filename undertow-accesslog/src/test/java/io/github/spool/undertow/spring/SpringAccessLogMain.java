package io.github.spool.undertow.spring;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring Boot 3.5 servlet application on Undertow with {@link SpoolAccessLogCustomizer}, run in
 * a forked JVM by {@link SpringBootAccessLogTest}: serves {@code args[0]} requests from 4 client
 * threads on loopback, prints {@code served=N}, {@code handled=H} (requests the server handled,
 * retries included) and {@code written=H}, then closes the context
 * (which drains the receiver) and exits. Other arguments are Spring Boot's.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class SpringAccessLogMain {

    static final int CLIENT_THREADS = 4;

    /**
     * Requests the servlet handled: the JDK's HttpClient retries a GET once when its connection
     * fails under it, so the server may see (and log) a request twice while the client counts it
     * once.
     */
    static final java.util.concurrent.atomic.AtomicInteger HANDLED = new java.util.concurrent.atomic.AtomicInteger();

    /** The one documented bean. */
    @Bean
    SpoolAccessLogCustomizer spoolAccessLog(ServerProperties server) {
        return new SpoolAccessLogCustomizer(server);
    }

    @Bean
    ServletRegistrationBean<HttpServlet> okServlet() {
        return new ServletRegistrationBean<>(new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HANDLED.incrementAndGet();
                resp.setContentType("text/plain");
                resp.getOutputStream().write("ok".getBytes(StandardCharsets.US_ASCII));
            }
        }, "/r/*");
    }

    public static void main(String[] args) throws Exception {
        final int requests = Integer.parseInt(args[0]);
        final String[] springArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        final ServletWebServerApplicationContext context =
                (ServletWebServerApplicationContext) SpringApplication.run(SpringAccessLogMain.class, springArgs);
        final int port = context.getWebServer().getPort();
        final ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
        final List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < CLIENT_THREADS; t++) {
            final int thread = t;
            done.add(clients.submit(() -> {
                final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                int ok = 0;
                for (int i = thread; i < requests; i += CLIENT_THREADS) {
                    final HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/r/" + i)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    ok += r.statusCode() == 200 && r.body().equals("ok") ? 1 : 0;
                }
                return ok;
            }));
        }
        int served = 0;
        for (Future<Integer> f : done) {
            served += f.get(60, TimeUnit.SECONDS);
        }
        clients.shutdown();
        final SpoolAccessLogCustomizer customizer = context.getBean(SpoolAccessLogCustomizer.class);
        System.out.println("served=" + served);
        System.out.println("handled=" + HANDLED.get());
        context.close(); // stops the server, then destroy() drains the receiver
        System.out.println("written=" + customizer.receiver().stats().getEventsWritten());
        System.out.println("nap=" + customizer.receiver().spool().config().writerNapMicros());
        System.out.println("lost=" + (customizer.receiver().stats().getEventsLost()
                + customizer.receiver().stats().getEventsDiscarded()));
    }
}
