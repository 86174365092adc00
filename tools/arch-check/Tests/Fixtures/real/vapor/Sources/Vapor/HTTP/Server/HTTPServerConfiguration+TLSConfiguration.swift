public import X509
