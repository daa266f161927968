// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_upload.h"

#include "upload/credential_chain.h"
#include "upload/http_client.h"
#include "upload/s3_client.h"
#include "upload/s3_endpoint.h"

namespace gsys::upload {

Status UploadToS3(const S3UploadRequest& request, const UploadOptions& options,
                  const Environment& env) {
  // Explicit options win over the environment (as the AWS CLI's --region/--endpoint-url).
  Environment effective = [&](const std::string& name) -> std::optional<std::string> {
    if (!options.endpoint_url.empty() &&
        (name == "AWS_ENDPOINT_URL_S3" || name == "AWS_ENDPOINT_URL")) {
      return options.endpoint_url;
    }
    return env(name);
  };
  std::string region = options.region.empty() ? ResolveRegion(env) : options.region;
  GSYS_ASSIGN_OR_RETURN(S3Location location, ResolveS3Location(request.bucket, region, effective));
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<HttpClient> http, MakeCurlHttpClient());
  Result<AwsCredentials> credentials = ResolveCredentials(env, http.get());
  if (!credentials.ok()) {
    return Error(credentials.status().code(), "upload: " + request.display_dest + ": " +
                                                  credentials.status().message().substr(8));
  }
  S3Client client(http.get(), location, *credentials, options, request.display_dest);
  client.SetRelocate([&](const std::string& bucket_region) {
    return ResolveS3Location(request.bucket, bucket_region, effective);
  });
  return client.Upload(request.key, request.local_path, request.size);
}

}  // namespace gsys::upload
