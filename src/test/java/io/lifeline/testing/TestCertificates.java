package io.lifeline.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for TLS tests, made in memory: a CA, certificates it signs (a server's for 127.0.0.1 and localhost, a
 * client's), PEM files for the server to read, and {@link SSLContext}s for clients with or without a client
 * certificate.
 */
public final class TestCertificates {

    /** A key pair and its certificate. */
    public record Issued(KeyPair keys, X509Certificate certificate) {

        /** Writes {@code <name>.crt} and {@code <name>.key} (PEM) into {@code dir}; returns the certificate's path. */
        public Path writePem(Path dir, String name) {
            try {
                Files.createDirectories(dir);
                Files.writeString(dir.resolve(name + ".crt"), pem(certificate));
                Files.writeString(dir.resolve(name + ".key"), pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
                return dir.resolve(name + ".crt");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private TestCertificates() {}

    /** A self-signed CA. */
    public static Issued authority(String name) {
        KeyPair keys = keys(name);
        return new Issued(keys, sign(name, keys, name, keys, true, null));
    }

    /** A certificate for {@code name} signed by {@code ca}, valid for 127.0.0.1 and localhost. */
    public static Issued issue(Issued ca, String name) {
        KeyPair keys = keys(subject(ca) + "/" + name);
        GeneralNames sans = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")
        });
        return new Issued(keys, sign(name, keys, subject(ca), ca.keys(), false, sans));
    }

    /**
     * A client context trusting {@code serverCa}, presenting {@code client} (null: no client certificate).
     */
    public static SSLContext client(Issued serverCa, Issued client) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", serverCa.certificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (client != null) {
                KeyStore own = KeyStore.getInstance("PKCS12");
                own.load(null, null);
                own.setKeyEntry(
                        "client", client.keys().getPrivate(), new char[0], new java.security.cert.Certificate[] {
                            client.certificate()
                        });
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(own, new char[0]);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), new SecureRandom());
            return ctx;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String subject(Issued ca) {
        return ca.certificate().getSubjectX500Principal().getName();
    }

    /**
     * The same keys for the same name every time: a Quarkus test profile is instantiated in more than one class loader
     * (and again at each restart), so certificates a profile writes for the server and those a test presents must agree
     * without sharing one static instance.
     */
    private static KeyPair keys(String name) {
        try {
            SecureRandom seeded = SecureRandom.getInstance("SHA1PRNG");
            seeded.setSeed(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256, seeded);
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(
            String subject, KeyPair subjectKeys, String issuer, KeyPair issuerKeys, boolean ca, GeneralNames sans) {
        try {
            Instant now = Instant.now();
            X500Name subjectName = new X500Name(subject.contains("=") ? subject : "CN=" + subject);
            X500Name issuerName = new X500Name(issuer.contains("=") ? issuer : "CN=" + issuer);
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    issuerName,
                    BigInteger.valueOf(new SecureRandom().nextLong() & Long.MAX_VALUE),
                    Date.from(now.minus(1, ChronoUnit.HOURS)),
                    Date.from(now.plus(1, ChronoUnit.DAYS)),
                    subjectName,
                    subjectKeys.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (sans != null) {
                b.addExtension(Extension.subjectAlternativeName, false, sans);
            }
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(Object o) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }
}
